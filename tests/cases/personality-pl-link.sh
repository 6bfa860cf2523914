# the .pl name selects the personality too, with Perl-style -pid
stackcollapse-perf.pl -pid "$DATA/small.perf"
