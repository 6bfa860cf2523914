flamekit record -e 'sched:sched wakeup' 1
