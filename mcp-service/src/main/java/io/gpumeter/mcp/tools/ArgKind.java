package io.gpumeter.mcp.tools;

/** The format of a tool argument: each is checked before any service is called, and given the JSON schema it names. */
public enum ArgKind {
    /** An RFC 3339 instant, e.g. {@code 2026-11-02T10:00:00Z}. */
    INSTANT,
    /** A calendar month, {@code YYYY-MM}. */
    MONTH,
    /** One of the argument's choices. */
    CHOICE,
    /** One or more of the argument's choices, comma-separated. */
    CHOICES,
    /** A number of days, {@code 30} or {@code 30d}. */
    DAYS,
    /** {@code true} or {@code false}. */
    FLAG,
    /** A name as the cluster spells it (pod, namespace, node, card UUID, service, tenant): one line of printable text. */
    NAME
}
