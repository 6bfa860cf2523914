# without privilege: one line saying what is missing (as root, drop it first)
if [[ $(id -u) == 0 ]]; then
	command -v setpriv > /dev/null || exit 77
	setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
		"$(command -v flamekit)" record 1
else
	flamekit record 1
fi
