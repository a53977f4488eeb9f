package io.gpumeter.ledger.config;

import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The failure and change books: when reports from different sources are one failure, what the change book leaves out
 * and compares, and when a node's MIG views disagreeing with its layout is an incident. Each group is a child of
 * gpumeter.ledger.
 */
public interface GovernanceConfig {

    interface Failures {
        /**
         * A node's kernel OOM event and an OOMKilled container on that node are one OOM when they lie this close in
         * time.
         */
        @WithDefault("60s")
        Duration oomEventTolerance();

        /**
         * A change of a card's dcgm-exporter Xid gauge is the kernel-log Xid of the same code on that card when they
         * lie this close in time (the gauge is read once per scrape).
         */
        @WithDefault("120s")
        Duration dcgmXidTolerance();
    }

    interface Changes {
        /**
         * Node labels that move on every heartbeat and are no change a person would call one: label keys, or
         * prefixes ending in *.
         */
        @WithDefault("nvidia.com/gfd.timestamp")
        List<String> ignoredLabels();

        /**
         * Whether a replica derives, at start, the book of every cluster whose stored history was not yet derived
         * under these rules (node label and queue versions stored before the book existed, or another list of
         * ignored labels).
         */
        @WithDefault("true")
        boolean deriveHistoryAtStart();

        /** How long before (and after) a change its impact compares when the request names no window. */
        @WithDefault("P1D")
        Duration impactWindow();

        /** How far before an incident's start the changes it carries ({@code changesBefore}) reach. */
        @WithDefault("P1D")
        Duration lookBack();
    }

    interface Mig {
        /**
         * How long a node's allocatable MIG devices, or the MIG instances dcgm-exporter reports on it, may disagree with
         * the layout its {@code nvidia.com/mig.config} names before the disagreement is a {@code mig-inconsistent}
         * incident: the MIG manager, the device plugin and the exporter each take a while to follow a new layout.
         */
        @WithDefault("PT10M")
        Duration grace();

        /**
         * How long after dcgm-exporter last reported a MIG instance it still counts as there: the exporter is scraped
         * every few seconds and its series delivered per minute.
         */
        @WithDefault("PT5M")
        Duration instanceStaleness();

        /**
         * How often the nodes whose views disagree are derived again, so that a grace running out opens the incident
         * without new facts (a Quarkus duration such as 1m; off disables it).
         */
        @WithDefault("1m")
        String recheckEvery();

        /**
         * Files in mig-parted's format ({@code version: v1}, {@code mig-configs:}) naming the cluster's own layouts,
         * read besides the GPU Operator's defaults; a layout named in both is the file's.
         */
        Optional<List<String>> layoutFiles();
    }
}
