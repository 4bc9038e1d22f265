#include "clanes.h"
