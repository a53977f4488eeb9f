package io.gpumeter.ledger.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithName;

import java.util.List;
import java.util.Optional;

/** The rules that tell a pod's workload class (application.properties documents the order they are tried in). */
@ConfigMapping(prefix = "gpumeter.ledger.workload-classes")
public interface WorkloadClassConfig {

    /** The rules by index; the defaults are in application.properties. */
    List<Rule> rules();

    interface Rule {
        /** The owner the rule names, group/Kind (core/Kind for the core group). */
        Optional<String> owner();

        /** The pod label the rule names, key or key=value. */
        Optional<String> label();

        /** The class of a pod the rule matches: inference, training, notebook, batch or other. */
        @WithName("class")
        String workloadClass();
    }
}
