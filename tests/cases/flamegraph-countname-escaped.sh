# --countname and --nametype reach the script as JSON strings: quotes,
# backslashes, control characters and < > & escaped (no "]]>" or "</script>"
# in the CDATA), bytes that are not UTF-8 as \ufffd, other UTF-8 as it is
flamekit flamegraph --countname "$(printf 'ms \377 "q" \\ ]]> </script>\001')" \
	--nametype "$(printf 'Fn\303\251 \340a:')" "$DATA/small.folded" > out.svg; echo "exit $?"
grep -o '^var flamekit_config = {"nametype":.*,"countname":"[^,]*' out.svg
