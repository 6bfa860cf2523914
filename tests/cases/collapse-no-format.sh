flamekit collapse
