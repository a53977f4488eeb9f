package io.gpumeter.ledger.idle.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Why a card's time was not busy (Q3): five parts that partition the time the card was known, in seconds or as shares.
 *
 * @param empty               no allocation on the card, and no pending pod that would have fit
 * @param queuedWhileEmpty    no allocation while a pending pod that would have fit waited
 * @param allocatedNotBusy    held, with activity under the busy threshold
 * @param busy                held, with activity at or above the busy threshold
 * @param allocatedUnmeasured held, with no activity measured
 */
public record IdleSplit(BigDecimal empty, BigDecimal queuedWhileEmpty, BigDecimal allocatedNotBusy, BigDecimal busy,
                        BigDecimal allocatedUnmeasured, BigDecimal total) {

    public static final IdleSplit ZERO = of(BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO);

    public static IdleSplit of(BigDecimal empty, BigDecimal queuedWhileEmpty, BigDecimal allocatedNotBusy, BigDecimal busy,
                               BigDecimal allocatedUnmeasured) {
        return new IdleSplit(empty, queuedWhileEmpty, allocatedNotBusy, busy, allocatedUnmeasured,
                empty.add(queuedWhileEmpty).add(allocatedNotBusy).add(busy).add(allocatedUnmeasured));
    }

    public IdleSplit plus(IdleSplit o) {
        return of(empty.add(o.empty), queuedWhileEmpty.add(o.queuedWhileEmpty), allocatedNotBusy.add(o.allocatedNotBusy),
                busy.add(o.busy), allocatedUnmeasured.add(o.allocatedUnmeasured));
    }

    /** Seconds printed to the millisecond. */
    public IdleSplit rounded() {
        return new IdleSplit(ms(empty), ms(queuedWhileEmpty), ms(allocatedNotBusy), ms(busy), ms(allocatedUnmeasured), ms(total));
    }

    /** Each part as a share of the total, to four decimals; all zero when the total is. */
    public IdleSplit shares() {
        if (total.signum() == 0) {
            return ZERO;
        }
        return new IdleSplit(share(empty), share(queuedWhileEmpty), share(allocatedNotBusy), share(busy),
                share(allocatedUnmeasured), BigDecimal.ONE);
    }

    private BigDecimal share(BigDecimal part) {
        return part.divide(total, 4, RoundingMode.HALF_EVEN).stripTrailingZeros();
    }

    private static BigDecimal ms(BigDecimal seconds) {
        return seconds.setScale(3, RoundingMode.HALF_EVEN).stripTrailingZeros();
    }
}
