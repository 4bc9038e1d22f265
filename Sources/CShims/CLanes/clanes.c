/* SwiftPM builds a C target from at least one source file; the shuffles are all inline. */
#include "clanes.h"
