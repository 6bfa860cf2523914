# one page, nothing fetched: no URL, no src or href, one script of code and the data
flamekit view -o out.html "$DATA/small.timed"; echo "exit $?"
grep -c -i -E 'https?:|src=|href=|@import|url\(' out.html
grep -o '<script[^>]*>' out.html
grep -o '"slice_ms":[0-9]*,"start_ns":[0-9]*' out.html
# the same page through writers[]: any command that writes by the file's ending
flamekit view "$DATA/small.timed" | cmp - out.html && echo "stdout same"
