package io.gpumeter.alert.config;

import io.smallrye.config.WithDefault;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/** Runbook actions (gpumeter.alert.actions.*): mode, rate limit and settings of each. */
public interface ActionsConfig {

    Cordon cordon();

    FreezeDecode freezeDecode();

    Action annotate();

    TraceSnapshot traceSnapshot();

    Ticket ticket();

    /** Mode and rate limit of one action. */
    interface Action {
        /** off (not run, not recorded), dry-run (recorded, nothing changed) or enforce. */
        @WithDefault("dry-run")
        String mode();

        /**
         * Most actions of this kind in any hour. Dry-runs are limited by their own count (so that a dry run shows what
         * enforce would do) and never use up the budget of enforced actions.
         */
        @WithDefault("10")
        int maxPerHour();
    }

    /** cordon, with its blast-radius guard. */
    interface Cordon extends Action {
        /** Largest share (0..1) of the GPU nodes gpumeter may hold cordoned at once. */
        @WithDefault("0.1")
        double maxShare();

        /** Nodes that may always be cordoned, whatever the fleet size. */
        @WithDefault("1")
        int floor();

        /** Window over which the ledger's nodes with GPU allocations make up the fleet. */
        @WithDefault("P7D")
        Duration fleetWindow();
    }

    /** freeze-decode. */
    interface FreezeDecode extends Action {
        /** Also taint the node gpumeter.io/decode-frozen=true:NoSchedule, which blocks every pod that does not tolerate it. */
        @WithDefault("false")
        boolean taint();
    }

    /** trace-snapshot: a Job on the alert's node. */
    interface TraceSnapshot extends Action {
        /** Namespace of the Job; the service's own namespace when unset. */
        Optional<String> namespace();

        /** A Job manifest (YAML or JSON) to start from instead of the built-in one; placeholders as in command. */
        Optional<String> templateFile();

        /** Image that captures the trace. */
        @WithDefault("nvcr.io/nvidia/cloud-native/dcgm:4.2.3-1-ubuntu22.04")
        String image();

        /**
         * Command, arguments separated by spaces; {node}, {gpu_uuid}, {alertname}, {seconds} and {samples} (one per
         * 100 ms) are replaced, and $(NODE_IP) is the node's address.
         */
        @WithDefault("dcgmi dmon --host $(NODE_IP) -e 1001,1002,1003,1005,155,203 -d 100 -c {samples}")
        String command();

        /** Seconds of capture. */
        @WithDefault("10")
        int seconds();

        /** Service account of the Job's pod; the namespace's default when unset. */
        Optional<String> serviceAccount();

        /** Seconds after which Kubernetes deletes a finished Job. */
        @WithDefault("3600")
        int ttlSecondsAfterFinished();
    }

    /** ticket: a POST of the alert to an outgoing webhook. */
    interface Ticket extends Action {
        /** Where tickets are opened; the action is skipped while unset. */
        Optional<URI> url();

        /** Bearer token sent with the ticket, if the receiver wants one. */
        Optional<String> token();
    }
}
