package io.gpumeter.alert.domain;

/** A rule's state after an evaluation. */
public enum RuleStatus {
    /** Evaluated; nothing to report. */
    OK,
    /** Evaluated; at least one alert fires. */
    FIRING,
    /** Its data source does not exist here ("source not available"); it never fires in this state. */
    INACTIVE,
    /** A source failed this time; the rule's alerts stay as they were until it answers again. */
    HELD
}
