flamekit record -e u:libc.so.6:malloc 1
