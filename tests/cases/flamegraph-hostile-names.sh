# names that would end an element or open one stay text; control bytes and
# invalid UTF-8 become U+FFFD, so the file is always well-formed XML
printf '%s\n' 'main;</text><script>alert(1)</script> 5' 'main;"onload="alert(2) 5' \
	'main;]]><script>x</script> 5' $'main;a\001b 5' > hostile.folded
printf 'main;bad\377byte 5\n' >> hostile.folded
flamekit flamegraph --title '</text><script>t</script>' --countname '<c>' hostile.folded > out.svg; echo "exit $?"
python3 -c 'import sys, xml.etree.ElementTree as ET; r = ET.parse(sys.argv[1]).getroot(); print(sum(1 for e in r.iter("{http://www.w3.org/2000/svg}script")), "script element")' out.svg
grep -o '<title>[^<]*</title>' out.svg | sort
grep -o '<text id="title"[^<]*<[^>]*>' out.svg
