// The system zlib, for the Explore provider's inflater (EngageExplore/Sync/ExploreInflater.swift).
// zlib ships with every platform the SDK supports (Debian's zlib1g-dev on Linux, the SDKs on Apple's).
#ifndef C_ENGAGE_ZLIB_H
#define C_ENGAGE_ZLIB_H

#include <zlib.h>

/// `inflateInit2` is a macro, which Swift cannot call: raw deflate (no zlib or gzip wrapper), as a zip
/// entry stores it, with the largest window.
static inline int engage_inflate_init_raw(z_streamp stream) {
    return inflateInit2(stream, -MAX_WBITS);
}

#endif
