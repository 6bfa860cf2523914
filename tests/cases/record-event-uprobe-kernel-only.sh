flamekit record -K -e u:/bin/true:main 1
