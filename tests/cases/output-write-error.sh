# DISABLED by the lead: this old case renamed a file over the machine's /dev/full.
# main replaced it with tests/cases/output-rule-device.sh; merging main drops this file.
echo "replaced on main by output-rule-device" >&2; exit 77
