# readelf --debug-dump=frames-interp's rows as "pc kind cfa_off rbp_off", the
# form of tests/unwind_table_dump.c (record.h's record_unwind_row): what
# flamekit's table must say at each row's address (tests/record_unwind.sh)
/ FDE / { infde = 1; hdr = 0; next }
/ CIE / { infde = 0; next }
infde && /^ +LOC +CFA/ { ncol = split($0, h, " "); hdr = 1; next }
infde && hdr && /^[0-9a-f]+ / && !/ZERO/ {
	gsub(/ \([a-z0-9]+\)/, "")
	pc = $1; sub(/^0+/, "", pc); if (pc == "") pc = "0"
	cfa = $2; ra = ""; rbp = "u"
	for (i = 3; i <= ncol; i++) { if (h[i] == "ra") ra = $i; if (h[i] == "rbp") rbp = $i }
	kind = 0; off = 0; roff = 0
	if (ra == "u") kind = 3
	else if (ra == "c-8" && cfa ~ /^(rsp|rbp)\+[0-9]+$/) {
		kind = cfa ~ /^rsp/ ? 1 : 2; off = cfa; sub(/^r[sb]p\+/, "", off)
		if (rbp ~ /^c-?[0-9]+$/) { roff = rbp; sub(/^c/, "", roff); kind += 16 }
		else if (rbp != "u") { kind = 0; off = 0 }
		off += 0; roff += 0; if (kind % 16 && off > 32767) { kind = 0; off = 0; roff = 0 }
	}
	print pc, kind, off, roff
}
