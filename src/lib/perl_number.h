/*
 * Numbers as Perl prints them, for output that must match the Perl tools'
 * digit for digit, and fast enough for a flame graph's million numbers.
 *
 *	perl_number__string()  Perl's "$x" for a number (an NV): "%.15g", which
 *	                       prints whole numbers below 1e15 exactly;
 *	perl_number__fixed()   sprintf("%.Nf", x) for N = 0, 1, 2, without
 *	                       printf on the common path, and optionally the
 *	                       value of the printed text;
 *	perl_number__key()     x after "$x" and back: what a Perl hash key
 *	                       built from the number keeps of it.
 *
 * The formatters write a NUL-terminated string and return its length.
 */
#ifndef FLAMEKIT_PERL_NUMBER_H
#define FLAMEKIT_PERL_NUMBER_H

#include <stddef.h>

#define PERL_NUMBER_SIZE 40

size_t perl_number__string(char out[PERL_NUMBER_SIZE], double x);
/* decimals: 0, 1 or 2. value, if not NULL, gets strtod() of the text. */
size_t perl_number__fixed(char out[PERL_NUMBER_SIZE], double x, int decimals, double *value);
double perl_number__key(double x);

#endif
