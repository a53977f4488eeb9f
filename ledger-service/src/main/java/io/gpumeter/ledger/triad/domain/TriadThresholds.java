package io.gpumeter.ledger.triad.domain;

/** Where the triad's figures turn high or low; DRAM_ACTIVE has a mid band for the compute-bound row's "low or mid". */
public record TriadThresholds(double engineHigh, double smHigh, double dramLow, double dramHigh) {

    public TriadThresholds {
        requireRatio("engineHigh", engineHigh);
        requireRatio("smHigh", smHigh);
        requireRatio("dramLow", dramLow);
        requireRatio("dramHigh", dramHigh);
        if (dramLow > dramHigh) {
            throw new IllegalArgumentException("dramLow " + dramLow + " is above dramHigh " + dramHigh);
        }
    }

    public TriadLevel engine(double value) {
        return value >= engineHigh ? TriadLevel.HIGH : TriadLevel.LOW;
    }

    public TriadLevel sm(double value) {
        return value >= smHigh ? TriadLevel.HIGH : TriadLevel.LOW;
    }

    public TriadLevel dram(double value) {
        return value >= dramHigh ? TriadLevel.HIGH : value < dramLow ? TriadLevel.LOW : TriadLevel.MID;
    }

    private static void requireRatio(String name, double value) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(name + " must be a ratio between 0 and 1, got " + value);
        }
    }
}
