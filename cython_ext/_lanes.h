/* Adding four 16-bit lanes into four 32-bit counters (holdem_enum's pass 2 inner step).
 *
 * counters[i] += lanes[i] & mask for i = 0..3.  With SSE2 (every x86-64 CPU) it is one
 * 8-byte load, a mask, a widening unpack and one 4 x 32-bit add: about a third of the
 * instructions gcc 12 makes of the four scalar adds.  Elsewhere the plain loop.
 */
#ifndef CYTHON_EXT_LANES_H
#define CYTHON_EXT_LANES_H

#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>

static inline void add_lanes(uint32_t *counters, const uint16_t *lanes, uint16_t mask)
{
    __m128i v = _mm_loadl_epi64((const __m128i *)lanes);
    v = _mm_and_si128(v, _mm_set1_epi16((short)mask));
    v = _mm_unpacklo_epi16(v, _mm_setzero_si128());
    _mm_storeu_si128((__m128i *)counters, _mm_add_epi32(_mm_loadu_si128((const __m128i *)counters), v));
}

#else

static inline void add_lanes(uint32_t *counters, const uint16_t *lanes, uint16_t mask)
{
    counters[0] += lanes[0] & mask;
    counters[1] += lanes[1] & mask;
    counters[2] += lanes[2] & mask;
    counters[3] += lanes[3] & mask;
}

#endif
#endif
