package io.gpumeter.billing.domain;

import io.gpumeter.common.problem.InvalidInput;

import java.util.regex.Pattern;

/**
 * Which rows a report may contain: all of them, or one tenant's. Every report applies its scope here and nowhere
 * else, so a later per-tenant token can narrow what a caller sees in one place.
 */
public record ReportScope(String tenant) {

    public static final ReportScope ALL = new ReportScope(null);

    private static final int MAX_TENANT_LENGTH = 253;
    private static final Pattern UNSAFE_IN_FILE_NAME = Pattern.compile("[^A-Za-z0-9._-]");

    /**
     * The scope named by an optional {@code tenant} parameter; absent means all tenants.
     *
     * @throws InvalidInput naming {@code tenant}, for an empty, over-long or control-character tenant
     */
    public static ReportScope parse(String tenant) {
        if (tenant == null) {
            return ALL;
        }
        if (tenant.isBlank() || tenant.length() > MAX_TENANT_LENGTH || tenant.chars().anyMatch(Character::isISOControl)) {
            throw new InvalidInput("tenant", "tenant must be a tenant name of 1 to " + MAX_TENANT_LENGTH
                    + " printable characters, got '" + tenant + "'");
        }
        return new ReportScope(tenant);
    }

    public boolean isAll() {
        return tenant == null;
    }

    /** The ledger dimensions a report by {@code groupBy} must request so this scope can be applied. */
    public String ledgerGroupBy(GroupBy groupBy) {
        if (isAll() || groupBy == GroupBy.TENANT) {
            return groupBy.dimension() + ",model";
        }
        return "tenant," + groupBy.dimension() + ",model";
    }

    /** Whether an aggregate of the ledger's owned by {@code lineTenant} belongs in the report. */
    public boolean admits(String lineTenant) {
        return isAll() || tenant.equals(lineTenant);
    }

    String fileNameSuffix() {
        return isAll() ? "" : "-" + UNSAFE_IN_FILE_NAME.matcher(tenant).replaceAll("_");
    }
}
