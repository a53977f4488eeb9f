package io.gpumeter.slo.capacity;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole UTC days of a history a model was in the inventory: from the first day that starts at or after it joined
 * (the day it joined is partial, and its demand with it) to the day before the plan. A model never in the inventory
 * has no days: demand without supply is planned from nothing rather than from a history of zeros.
 */
final class FittedDays {

    private FittedDays() {
    }

    static List<LocalDate> of(LocalDate first, LocalDate end, Instant inventorySince) {
        List<LocalDate> days = new ArrayList<>();
        if (inventorySince == null) {
            return days;
        }
        LocalDate joined = inventorySince.atZone(ZoneOffset.UTC).toLocalDate();
        if (!joined.atStartOfDay(ZoneOffset.UTC).toInstant().equals(inventorySince)) {
            joined = joined.plusDays(1);
        }
        for (LocalDate d = joined.isAfter(first) ? joined : first; d.isBefore(end); d = d.plusDays(1)) {
            days.add(d);
        }
        return days;
    }
}
