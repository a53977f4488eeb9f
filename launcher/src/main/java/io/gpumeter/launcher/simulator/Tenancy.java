package io.gpumeter.launcher.simulator;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The simulated tenants: five namespaces of four tenants, one of which changes hands during the history. */
final class Tenancy {

    static final String TENANT_LABEL = "gpumeter.io/tenant";
    static final String TEAM_LABEL = "gpumeter.io/team";

    static final String ACME_INFERENCE = "acme-inference";
    static final String ACME_TRAINING = "acme-training";
    static final String GLOBEX_LLM = "globex-llm";
    static final String INITECH_BATCH = "initech-batch";
    static final String UMBRELLA_RESEARCH = "umbrella-research";

    /** The namespace whose tenant label is rewritten mid-history (initech's batch team moves to globex). */
    static final String RELABELLED = INITECH_BATCH;
    static final String RELABELLED_TO = "globex";

    private Tenancy() {
    }

    static List<SimNamespace> build(Ids ids, Instant created, Instant relabelAt) {
        List<SimNamespace> namespaces = new ArrayList<>();
        namespaces.add(namespace(ids, ACME_INFERENCE, "acme", "serving", created));
        namespaces.add(namespace(ids, ACME_TRAINING, "acme", "research", created));
        namespaces.add(namespace(ids, GLOBEX_LLM, "globex", "platform-ml", created));
        namespaces.add(new SimNamespace(INITECH_BATCH, ids.uid(), "analytics",
                List.of(new TenantPeriod("initech", created), new TenantPeriod(RELABELLED_TO, relabelAt))));
        namespaces.add(namespace(ids, UMBRELLA_RESEARCH, "umbrella", "vision", created));
        return namespaces;
    }

    private static SimNamespace namespace(Ids ids, String name, String tenant, String team, Instant created) {
        return new SimNamespace(name, ids.uid(), team, List.of(new TenantPeriod(tenant, created)));
    }
}
