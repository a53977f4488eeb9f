package io.gpumeter.billing.domain;

/**
 * The finest grouping a closed month is stored at: every dimension a report can group by, and the GPU model, so
 * any report of the month (any grouping, any tenant) can be rendered from the stored lines alone; and the cluster
 * where the stretch's card prices energy per cluster (else null).
 */
public record FineKey(String tenant, String team, String project, String namespace, String model, String cluster) {

    /** The ledger dimensions that produce these keys. */
    public static final String LEDGER_GROUP_BY = "tenant,team,project,namespace,model";

    /** A key without a cluster. */
    public FineKey(String tenant, String team, String project, String namespace, String model) {
        this(tenant, team, project, namespace, model, null);
    }

    /** The ledger dimensions of a stretch's keys: by cluster too when its card prices energy per cluster. */
    public static String ledgerGroupBy(RateCard card) {
        return card.pricesEnergyByCluster() ? LEDGER_GROUP_BY + ",cluster" : LEDGER_GROUP_BY;
    }

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
