package io.gpumeter.common.fact;

import java.math.BigDecimal;

/**
 * One resource of one flavor of a queue: what it is promised and what it holds. Kueue fills nominal, borrowing and
 * lending limits from spec and reserved/used from status.flavorsReservation/flavorsUsage; a Volcano Queue fills
 * nominal from deserved (else guarantee), capability from spec.capability and used from status.allocated.
 */
public record QuotaLine(String flavor, String resource, BigDecimal nominal, BigDecimal borrowingLimit,
                        BigDecimal lendingLimit, BigDecimal capability, BigDecimal reserved, BigDecimal used,
                        BigDecimal borrowed) {
}
