#include "perl_number.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Formats x >= 0 as printf's "%.<decimals>f" would, without printf: x times
 * 10^decimals rounded to the nearest integer, ties to even. The product is
 * rounded once, monotonically, so it can only land on a tie the exact value
 * was not on by hitting it exactly: those (and large or negative x) go to
 * snprintf. Returns the length written to out. */
size_t perl_number__fixed(char out[PERL_NUMBER_SIZE], double x, int decimals, double *value)
{
	static const double scale[] = { 1, 10, 100 };
	double v = x * scale[decimals];
	double r = nearbyint(v);
	if (!(x >= 0) || v >= 1e15 || fabs(v - r) == 0.5) {
		size_t len = (size_t)snprintf(out, PERL_NUMBER_SIZE, "%.*f", decimals, x);
		if (value)
			*value = strtod(out, NULL);
		return len;
	}
	if (value)
		*value = r / scale[decimals];  /* correctly rounded, as strtod(out) */
	uint64_t n = (uint64_t)r;
	char digits[24];
	size_t count = 0;
	do {
		digits[count++] = (char)('0' + n % 10);
		n /= 10;
	} while (n || count <= (size_t)decimals);
	size_t len = 0;
	while (count > 0) {
		if (count == (size_t)decimals)
			out[len++] = '.';
		out[len++] = digits[--count];
	}
	out[len] = '\0';
	return len;
}

size_t perl_number__string(char out[PERL_NUMBER_SIZE], double x)
{
	if (x == floor(x) && fabs(x) < 1e15)
		return perl_number__fixed(out, x, 0, NULL);  /* "-5" by the snprintf path */
	if (x * 2 == floor(x * 2) && fabs(x) < 1e14)
		return perl_number__fixed(out, x, 1, NULL);  /* halves: %.15g prints "191.5" too */
	return (size_t)snprintf(out, PERL_NUMBER_SIZE, "%.15g", x);
}

double perl_number__key(double x)
{
	if (x == floor(x) && fabs(x) < 1e15)
		return x;
	char text[PERL_NUMBER_SIZE];
	snprintf(text, sizeof(text), "%.15g", x);
	return strtod(text, NULL);
}
