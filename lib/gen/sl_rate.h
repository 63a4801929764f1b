/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef SL_RATE_H
#define SL_RATE_H

/**
 * @file
 * The rate model, defined once: how a user states a rate (--rate, set rate),
 * how it reads back, and how it is checked against a port's line and turned
 * into what the pacer takes. L1 counts the wire (frame + FCS + preamble, SFD
 * and inter-frame gap), L2 the frames with their FCS (sl_wire.h).
 */

#include <stddef.h>
#include <stdint.h>

/** Units of a rate; the pacer takes NONE, PPS, L1 and L2. */
enum sl_rate_unit {
	SL_RATE_NONE = 0, /**< as fast as possible */
	SL_RATE_PPS,      /**< packets per second */
	SL_RATE_L1,       /**< bit/s on the wire */
	SL_RATE_L2,       /**< bit/s of frames with FCS */
	SL_RATE_PCT,      /**< % of the link speed, L1 */
};

struct sl_rate {
	enum sl_rate_unit unit;
	double value;     /**< in the unit's base (pps, bit/s, percent) */
};

/**
 * Parse "14.88Mpps", "500kpps", "10Gbps" (L1), "9.5Gbps-l2", "50%" or "max".
 * @return 0, or -EINVAL (and *r unchanged).
 */
int sl_rate_parse(const char *s, struct sl_rate *r);

/** The words sl_rate_parse() understands, for error messages. */
#define SL_RATE_SYNTAX "a positive number with a unit: pps, kpps, Mpps, bps, kbps, Mbps, " \
	"Gbps (L1), Gbps-l2 (L2), or % of link speed (at most 100%), or max (any case: 10mpps)"

/** A line rate such as "10G", "400G", "1500M" (bit/s); 0 or -EINVAL. */
int sl_rate_parse_bps(const char *s, uint64_t *bps);

/**
 * A whole decimal number in [min, max], all of s (no sign, no blanks, no
 * hex): 0, or -EINVAL with "'S' is not a number" or "N is out of range
 * MIN..MAX" in err. Every whole number users give (options, the prompt,
 * the sim's arguments) is read with it.
 */
int sl_u64_parse(const char *s, uint64_t min, uint64_t max, uint64_t *v, char *err, size_t len);

/** Human form, scaled: "500 pps", "14.88 Mpps", "10 Gb/s L1", "50% of line", "max". */
void sl_rate_str(const struct sl_rate *r, char *buf, size_t len);
/** A link speed in bit/s for people ("1.5 Mb/s", "10 Gb/s", "unknown" for 0); returns buf. */
const char *sl_rate_speed_str(uint64_t bps, char *buf, size_t len);

/**
 * A measured rate for display, scaled so that the figure is at least 1 (or
 * the unit is the base one) with 3 decimals: "500.000 pps", "1.488 Mpps";
 * "0.000 b/s" .. "1.000 Tb/s". The JSON keeps base units (pps, bit/s).
 */
void sl_rate_fmt_pps(double pps, char *buf, size_t len);
void sl_rate_fmt_bps(double bps, char *buf, size_t len);

/**
 * Check a rate against a port's line and resolve it for the pacer.
 *
 * @param line_bps  the port's line rate in bit/s, 0 if unknown.
 * @param mean_l1   mean L1 bits per frame of the sizes to be sent.
 * @param mean_l2   mean L2 bits per frame.
 * @param[out] pace the rate in NONE, PPS, L1 or L2: a rate at the line
 *   itself becomes NONE (the wire paces; a software pacer that matched it
 *   exactly would lose wire time at every late wake-up).
 * @return 0, or -EINVAL with err saying why: above the line (naming it),
 *   or a percentage of a line that is not known.
 */
int sl_rate_resolve(const struct sl_rate *r, double line_bps, double mean_l1, double mean_l2,
		    struct sl_rate *pace, char *err, size_t len);

#endif /* SL_RATE_H */
