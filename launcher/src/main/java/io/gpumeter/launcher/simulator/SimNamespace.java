package io.gpumeter.launcher.simulator;

import java.time.Instant;
import java.util.List;

/** A tenant namespace and the history of its tenant label, oldest first. */
public record SimNamespace(String name, String uid, String team, List<TenantPeriod> tenants) {

    public SimNamespace {
        tenants = List.copyOf(tenants);
    }

    /** The tenant label in force at {@code at}; the first tenant before the namespace existed. */
    public String tenantAt(Instant at) {
        String tenant = tenants.get(0).tenant();
        for (TenantPeriod period : tenants) {
            if (!period.since().isAfter(at)) {
                tenant = period.tenant();
            }
        }
        return tenant;
    }
}
