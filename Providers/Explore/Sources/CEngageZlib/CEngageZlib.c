// A C target needs a source file; everything CEngageZlib offers is in include/CEngageZlib.h.
#include "CEngageZlib.h"
