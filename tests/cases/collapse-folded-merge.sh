flamekit collapse folded "$DATA/a.folded" "$DATA/b.folded"
