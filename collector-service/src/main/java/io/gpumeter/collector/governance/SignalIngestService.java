package io.gpumeter.collector.governance;

import io.gpumeter.collector.config.CollectorConfig;
import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.IngestResult;
import io.gpumeter.common.fact.LogSignalFact;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import jakarta.enterprise.context.ApplicationScoped;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Pushed logs (a node's kernel log, a container's output) into governance facts, delivered as one batch. */
@ApplicationScoped
public class SignalIngestService {

    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");

    private final GovernanceDelivery delivery;
    private final CollectorConfig config;

    private final Clock clock;

    public SignalIngestService(GovernanceDelivery delivery, CollectorConfig config, Clock clock) {
        this.clock = clock;
        this.delivery = delivery;
        this.config = config;
    }

    public SignalResult kernelLog(InputStream body, String cluster, String node, String zone, String bootTime) {
        String target = cluster(cluster);
        ZoneId zoneId;
        try {
            zoneId = zone == null || zone.isBlank() ? ZoneId.of("UTC") : ZoneId.of(zone.trim());
        } catch (DateTimeException e) {
            throw ApiProblem.badRequest("zone", "zone must be a time-zone id such as UTC or Europe/Berlin, got '" + zone + "'");
        }
        Instant boot = bootTime == null || bootTime.isBlank() ? null : Params.instant("bootTime", bootTime);
        List<String> lines = lines(body);
        KernelLogParser.Parsed parsed = new KernelLogParser(name("node", node), zoneId, boot, clock.instant()).parse(lines);
        List<Object> facts = new ArrayList<>(parsed.addresses());
        facts.addAll(parsed.xids());
        IngestResult stored = delivery.deliver(GovernanceBatch.of(target, facts), "");
        return new SignalResult(target, parsed.lines(), parsed.xids().size(), parsed.addresses().size(), 0,
                parsed.skipped().values().stream().mapToInt(Integer::intValue).sum(), parsed.skipped(), stored);
    }

    public SignalResult containerLog(InputStream body, String cluster, String namespace, String pod, String container) {
        String target = cluster(cluster);
        name("namespace", namespace);
        name("pod", pod);
        Instant now = clock.instant();
        List<LogSignalFact> signals = new ArrayList<>();
        int count = 0;
        for (String line : lines(body)) {
            if (line.isBlank()) {
                continue;
            }
            count++;
            String signal = LogSignals.classify(line);
            if (signal != null) {
                Instant at = now;
                String text = line.strip();
                int space = text.indexOf(' ');
                if (space > 0) {
                    try {
                        at = OffsetDateTime.parse(text.substring(0, space)).toInstant();
                        text = text.substring(space + 1);
                    } catch (DateTimeParseException e) {
                        at = now;
                    }
                }
                signals.add(new LogSignalFact(namespace, pod, container, at, signal,
                        text.length() > 500 ? text.substring(0, 500) : text));
            }
        }
        IngestResult stored = delivery.deliver(GovernanceBatch.of(target, signals), "");
        return new SignalResult(target, count, 0, 0, signals.size(), 0, Map.of(), stored);
    }

    private String cluster(String cluster) {
        return cluster == null || cluster.isEmpty() ? config.cluster() : ClusterName.require("cluster", cluster);
    }

    private static String name(String field, String value) {
        if (value == null || !DNS_SUBDOMAIN.matcher(value).matches()) {
            throw ApiProblem.badRequest(field, field + " is required and must be a Kubernetes object name, got '" + value + "'");
        }
        return value;
    }

    private static List<String> lines(InputStream body) {
        List<String> lines = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines.add(line);
                if (lines.size() > 200_000) {
                    throw ApiProblem.tooLarge("body", "a pushed log may carry at most 200000 lines; split it");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return lines;
    }
}
