# readelf --debug-dump=frames-interp's rows as "pc kind cfa_off rbp_off", the
# form of tests/unwind_table_dump.c (record.h's record_unwind_row): what
# flamekit's table must say at each row's address (tests/record_unwind.sh).
# The first file is readelf --debug-dump=frames of the same binary, where
# the FDEs whose CFA is GNU ld's .plt expression are found (frames-interp
# prints "exp" for any expression).
function fde_start(line,   s) {
	s = line; sub(/.* pc=/, "", s); sub(/\.\..*/, "", s); return s
}
NR == FNR {
	if (/ FDE /) start = fde_start($0)
	else if (match($0, /DW_CFA_def_cfa_expression \(DW_OP_breg7 \(rsp\): [0-9]+; DW_OP_breg16 \(rip\): 0; DW_OP_lit15; DW_OP_and; DW_OP_lit[0-9]+; DW_OP_ge; DW_OP_lit3; DW_OP_shl; DW_OP_plus\)/)) {
		off = push = substr($0, RSTART, RLENGTH)
		sub(/.*\(rsp\): /, "", off); sub(/;.*/, "", off)
		sub(/.*DW_OP_and; DW_OP_lit/, "", push); sub(/;.*/, "", push)
		plt[start] = off " " push
	}
	next
}
/ FDE / { infde = 1; hdr = 0; inplt = plt[fde_start($0)]; next }
/ CIE / { infde = 0; next }
infde && /^ +LOC +CFA/ { ncol = split($0, h, " "); hdr = 1; next }
infde && hdr && /^[0-9a-f]+ / && !/ZERO/ {
	gsub(/ \([a-z0-9]+\)/, "")
	pc = $1; sub(/^0+/, "", pc); if (pc == "") pc = "0"
	cfa = $2; ra = ""; rbp = "u"
	for (i = 3; i <= ncol; i++) { if (h[i] == "ra") ra = $i; if (h[i] == "rbp") rbp = $i }
	kind = 0; off = 0; roff = 0
	if (ra == "u") kind = 3
	else if (ra == "c-8" && cfa == "exp" && inplt != "" && rbp == "u") {
		split(inplt, p, " "); kind = 5; off = p[1]; roff = p[2] * 8
	}
	else if (ra == "c-8" && cfa ~ /^(rsp|rbp)\+[0-9]+$/) {
		kind = cfa ~ /^rsp/ ? 1 : 2; off = cfa; sub(/^r[sb]p\+/, "", off)
		if (rbp ~ /^c-?[0-9]+$/) { roff = rbp; sub(/^c/, "", roff); kind += 16 }
		else if (rbp != "u") { kind = 0; off = 0 }
		off += 0; roff += 0; if (kind % 16 && off > 32767) { kind = 0; off = 0; roff = 0 }
	}
	print pc, kind, off, roff
}
