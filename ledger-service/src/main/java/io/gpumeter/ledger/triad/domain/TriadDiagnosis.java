package io.gpumeter.ledger.triad.domain;

import java.util.ArrayList;
import java.util.List;

/**
 * The reading of the triad over some stretch of time: the three means, their levels and the signature they make.
 *
 * @param firstColumn the field the first column came from: GR_ENGINE_ACTIVE (field 1001) when measured, else
 *                    GPU_UTIL (field 203); null when neither was
 * @param missing     the fields the reading needed and did not have
 */
public record TriadDiagnosis(String firstColumn, Double firstColumnMean, Double smActiveMean, Double dramActiveMean,
                             Levels levels, TriadSignature signature, String meaning, List<String> missing) {

    public static final String GR_ENGINE_ACTIVE = "GR_ENGINE_ACTIVE";
    public static final String GPU_UTIL = "GPU_UTIL";

    /** The level of each figure; null where the figure is missing. */
    public record Levels(TriadLevel firstColumn, TriadLevel smActive, TriadLevel dramActive) {
    }

    public TriadDiagnosis {
        missing = List.copyOf(missing);
    }

    /**
     * Reads the triad. SM_ACTIVE is off in dcgm-exporter's default counters; when it is missing and the first
     * column is low, it is taken as low, since SMs cannot be active longer than the engine that feeds them.
     */
    public static TriadDiagnosis of(String firstColumn, Double first, Double sm, Double dram, TriadThresholds t) {
        List<String> missing = new ArrayList<>();
        TriadLevel firstLevel = first == null ? null : t.engine(first);
        TriadLevel smLevel = sm == null ? (firstLevel == TriadLevel.LOW ? TriadLevel.LOW : null) : t.sm(sm);
        TriadLevel dramLevel = dram == null ? null : t.dram(dram);
        if (first == null) {
            missing.add(firstColumn == null ? GR_ENGINE_ACTIVE + "|" + GPU_UTIL : firstColumn);
        }
        if (smLevel == null) {
            missing.add("SM_ACTIVE");
        }
        if (dramLevel == null) {
            missing.add("DRAM_ACTIVE");
        }
        TriadSignature signature = missing.isEmpty() ? match(firstLevel, smLevel, dramLevel) : TriadSignature.INSUFFICIENT_DATA;
        return new TriadDiagnosis(first == null ? null : firstColumn, round(first), round(sm), round(dram),
                new Levels(firstLevel, smLevel, dramLevel), signature, signature.meaning(), missing);
    }

    static TriadSignature match(TriadLevel first, TriadLevel sm, TriadLevel dram) {
        if (first == TriadLevel.HIGH && sm == TriadLevel.LOW && dram == TriadLevel.HIGH) {
            return TriadSignature.BANDWIDTH_BOUND;
        }
        if (first == TriadLevel.HIGH && sm == TriadLevel.HIGH && dram != TriadLevel.HIGH) {
            return TriadSignature.COMPUTE_BOUND;
        }
        if (first == TriadLevel.HIGH && sm == TriadLevel.LOW && dram == TriadLevel.LOW) {
            return TriadSignature.BUSY_NOT_WORKING;
        }
        if (first == TriadLevel.LOW && sm == TriadLevel.LOW && dram == TriadLevel.LOW) {
            return TriadSignature.IDLE;
        }
        return TriadSignature.UNMATCHED;
    }

    /** Means print with six decimals, enough for ratios and free of binary-fraction noise. */
    static Double round(Double value) {
        return value == null ? null : Math.round(value * 1_000_000d) / 1_000_000d;
    }
}
