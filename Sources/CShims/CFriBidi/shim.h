#include <fribidi.h>

/* The paragraph direction constants are macros Swift cannot import. */
static inline FriBidiParType motionkiosk_fribidi_auto_direction(void) { return FRIBIDI_PAR_ON; }
static inline FriBidiParType motionkiosk_fribidi_left_to_right(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType motionkiosk_fribidi_right_to_left(void) { return FRIBIDI_PAR_RTL; }
