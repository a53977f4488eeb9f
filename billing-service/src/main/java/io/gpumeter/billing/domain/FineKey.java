package io.gpumeter.billing.domain;

/**
 * The finest grouping a closed month is stored at: every dimension a report can group by, and the GPU model, so
 * any report of the month (any grouping, any tenant) can be rendered from the stored lines alone.
 */
public record FineKey(String tenant, String team, String project, String namespace, String model) {

    /** The ledger dimensions that produce these keys. */
    public static final String LEDGER_GROUP_BY = "tenant,team,project,namespace,model";

    /** The value of the report's grouping dimension. */
    public String dimension(GroupBy groupBy) {
        return switch (groupBy) {
            case TENANT -> tenant;
            case TEAM -> team;
            case PROJECT -> project;
            case NAMESPACE -> namespace;
        };
    }
}
