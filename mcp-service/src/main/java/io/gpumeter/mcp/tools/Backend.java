package io.gpumeter.mcp.tools;

/** A service whose reads the tools answer from; its id is its name in config keys and in a service token's aud. */
public enum Backend {
    LEDGER("ledger"), SLO("slo"), ALERT("alert"), BILLING("billing");

    private final String id;

    Backend(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }
}
