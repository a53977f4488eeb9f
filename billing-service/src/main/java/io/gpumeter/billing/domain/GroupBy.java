package io.gpumeter.billing.domain;

import io.gpumeter.common.problem.InvalidInput;
import io.gpumeter.common.problem.Params;

import java.util.Locale;

/**
 * The ownership dimension a report has one row per value of.
 */
public enum GroupBy {
    TENANT, TEAM, PROJECT, NAMESPACE;

    /** The dimension's name as the ledger and the report header spell it. */
    public String dimension() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws InvalidInput naming the accepted values */
    public static GroupBy parse(String text) {
        return Params.oneOfIgnoringCase("groupBy", text, values(), GroupBy::dimension);
    }
}
