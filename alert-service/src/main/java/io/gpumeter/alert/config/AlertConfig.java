package io.gpumeter.alert.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Settings of alert-service: where it is reached, its rules' thresholds, how it talks to Alertmanager, the webhook
 * token, the runbook and its actions.
 */
@ConfigMapping(prefix = "gpumeter.alert")
public interface AlertConfig {

    /** Base URL under which Alertmanager users reach this service (generatorURL, runbook links). */
    @WithDefault("http://alert-service:8084")
    String externalUrl();

    /** Alertmanager's webhook into this service. */
    Webhook webhook();

    /** The rule evaluation. */
    Evaluation evaluation();

    /** Sending gpumeter's own alerts to Alertmanager. */
    Alertmanager alertmanager();

    /** Thresholds of the semantic rules. */
    RulesConfig rules();

    /** Runbook actions: mode, rate limit and settings of each. */
    ActionsConfig actions();

    /** Runbook entries by alert name. */
    Map<String, RunbookEntry> runbook();

    /** Alertmanager's webhook. */
    interface Webhook {
        /** Bearer token Alertmanager must send; while it is unset or blank the webhook refuses every call. */
        Optional<String> token();
    }

    /** The rule evaluation. */
    interface Evaluation {
        /** How often the rules run (a duration such as 60s, or "off"). */
        @WithDefault("60s")
        String every();

        /** How long a firing alert stays valid in Alertmanager without being sent again (Prometheus: 4 intervals). */
        @WithDefault("4m")
        Duration validity();

        /** How far back the ledger is asked for failure incidents by their start; open ones are read whatever their start. */
        @WithDefault("P7D")
        Duration failureLookback();
    }

    /** Delivery to Alertmanager (POST /api/v2/alerts at quarkus.rest-client.alertmanager.url). */
    interface Alertmanager {
        /** Whether alerts are sent at all; off keeps them in the outbox. */
        @WithDefault("true")
        boolean enabled();

        /** How often the outbox is delivered (a duration, or "off"). */
        @WithDefault("10s")
        String deliverEvery();

        /** Pause after the first failed attempt; it doubles with each failure. */
        @WithDefault("5s")
        Duration backoffInitial();

        /** Longest pause between attempts. */
        @WithDefault("5m")
        Duration backoffMax();

        /** Most alerts in one POST. */
        @WithDefault("500")
        int batchSize();
    }

    /** One runbook entry. */
    interface RunbookEntry {
        /** critical, warning or info. */
        @WithDefault("warning")
        String severity();

        /** What the alert means. */
        String meaning();

        /** Evidence to collect, in order. */
        Optional<List<String>> evidence();

        /** Actions run automatically when the alert arrives (each in its configured mode). */
        Optional<List<String>> actions();

        /** Actions undone when the alert resolves (only what gpumeter itself did). */
        Optional<List<String>> undoOnResolve();

        /** Steps for a person. */
        Optional<List<String>> manual();

        /** How to roll back. */
        @WithDefault("nothing to roll back")
        String rollback();

        /** Who acts. */
        @WithDefault("platform team")
        String who();
    }
}
