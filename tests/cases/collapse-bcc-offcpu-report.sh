# bcc offcputime's report (and record --off-cpu's): its header line is not data
printf '%s\n' 'Tracing off-CPU time (us) of PID 42 by user + kernel stack... Hit Ctrl-C to end.' '' \
	'    __schedule' '    schedule' '    do_nanosleep' '    nanosleep' '    main' \
	'    -                sleeper (42)' '        7002' '' \
	'    __schedule' '    pipe_read' '    read' '    main' \
	'    -                sleeper (42)' '        2998' '' | flamekit collapse bcc
