flamekit collapse jfr x.jfr
