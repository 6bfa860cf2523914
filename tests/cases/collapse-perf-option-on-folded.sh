flamekit collapse folded --pid "$DATA/a.folded"
