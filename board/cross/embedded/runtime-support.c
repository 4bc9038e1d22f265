// What the Embedded Swift standard library expects from the platform and glibc does not
// name the same way: number parsing in the C locale (Double(String), Float(String)).
#define _GNU_SOURCE
#include <locale.h>
#include <stdlib.h>

static locale_t c_locale(void) {
    static locale_t loc;
    if (!loc) loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    return loc;
}

const char *_swift_stdlib_strtod_clocale(const char *nptr, double *out) {
    char *end;
    *out = strtod_l(nptr, &end, c_locale());
    return end;
}

const char *_swift_stdlib_strtof_clocale(const char *nptr, float *out) {
    char *end;
    *out = strtof_l(nptr, &end, c_locale());
    return end;
}

#include <unistd.h>
char **motionkiosk_environ(void) { return environ; }
