package io.gpumeter.console;

/** The five services the console reads. */
public enum Backend {
    COLLECTOR("collector-service"),
    LEDGER("ledger-service"),
    SLO("slo-service"),
    ALERT("alert-service"),
    BILLING("billing-service");

    private final String title;

    Backend(String title) {
        this.title = title;
    }

    /** e.g. {@code ledger-service}, as messages name it. */
    public String title() {
        return title;
    }
}
