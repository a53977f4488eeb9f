package io.gpumeter.alert.service;

import io.gpumeter.alert.config.CausesConfig;
import io.gpumeter.alert.domain.CauseEntry;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.common.triage.XidClass;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The runbook by cause as shipped in application.properties, and the start-up check that refuses a gap in it. */
class CauseRunbookTest {

    /** The shipped file's cause entries, changed by {@code edit}, read as the service reads them at start. */
    static CauseRunbook runbook(Consumer<Map<String, String>> edit) {
        Properties shipped = new Properties();
        try (InputStream in = CauseRunbookTest.class.getResourceAsStream("/application.properties")) {
            shipped.load(in);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        Map<String, String> causes = new HashMap<>();
        shipped.stringPropertyNames().stream().filter(k -> k.startsWith(CauseRunbook.PREFIX))
                .forEach(k -> causes.put(k, shipped.getProperty(k)));
        edit.accept(causes);
        SmallRyeConfig config = new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(causes, "test", 250))
                .withMapping(CausesConfig.class).build();
        return new CauseRunbook(config.getConfigMapping(CausesConfig.class));
    }

    @Test
    void everyCauseATriageCanNameHasStepsAndAVerification() {
        CauseRunbook runbook = runbook(c -> { });
        for (PendingReason r : PendingReason.values()) {
            assertTrue(runbook.fix(r.label()).isPresent(), r.label());
        }
        for (FailureCause c : FailureCause.values()) {
            assertTrue(runbook.fix(c.label()).isPresent(), c.label());
        }
        List<CauseEntry> entries = runbook.entries();
        assertEquals("wrong-scheduler", entries.get(0).cause(), "the wait classes first, in the vocabulary's order");
        assertEquals(List.of("wait", "failure", "xid-class", "xid"),
                entries.stream().map(CauseEntry::kind).distinct().toList());
        CauseEntry full = runbook.entry("cluster-full").orElseThrow();
        assertEquals("control-plane", full.layer());
        assertTrue(full.action().startsWith("1. Wait, or shrink the request"), full.action());
        assertTrue(full.action().contains("\n2. Find idle holders"), "numbered, smallest first: " + full.action());
        assertTrue(full.verify().contains("the pod is scheduled"), full.verify());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "xid-48  | xid-48              | data-plane | reset the GPU",
            "xid-45  | xid-application     | workload   | the program's own fault",
            "xid-79  | xid-hardware-driver | data-plane | Drain the card's pods",
            "xid-7   | xid-unclassified    | data-plane | NVIDIA's Xid catalogue",
            "gpu-lost | gpu-lost           | data-plane | falls off the bus again",
    })
    void anXidWithoutItsOwnEntryTakesItsClasss(String cause, String entry, String layer, String words) {
        CauseEntry e = runbook(c -> { }).entry(cause).orElseThrow();
        assertEquals(entry, e.cause());
        assertEquals(layer, e.layer());
        assertTrue(e.action().contains(words), e.action());
        assertEquals(e.action(), runbook(c -> { }).fix(cause).orElseThrow().action());
    }

    @Test
    void aCauseWithoutAnEntryStopsTheStartNamingItsProperty() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> runbook(c -> c.keySet()
                .removeIf(k -> k.startsWith("gpumeter.alert.causes.no-device."))));
        assertTrue(e.getMessage().startsWith("gpumeter.alert.causes.no-device.steps: every cause a triage can name"),
                e.getMessage());
        IllegalArgumentException xid = assertThrows(IllegalArgumentException.class, () -> runbook(c -> c.keySet()
                .removeIf(k -> k.startsWith("gpumeter.alert.causes." + XidClass.UNCLASSIFIED.causeLabel() + "."))));
        assertTrue(xid.getMessage().startsWith("gpumeter.alert.causes.xid-unclassified.steps"), xid.getMessage());
    }

    @Test
    void aMisspeltOrEmptyEntryStopsTheStartNamingItsProperty() {
        IllegalArgumentException typo = assertThrows(IllegalArgumentException.class, () -> runbook(c -> {
            c.put("gpumeter.alert.causes.cluster-ful.steps[0]", "wait");
            c.put("gpumeter.alert.causes.cluster-ful.verify", "it runs");
        }));
        assertTrue(typo.getMessage().startsWith("gpumeter.alert.causes.cluster-ful: no such cause"), typo.getMessage());
        IllegalArgumentException blank = assertThrows(IllegalArgumentException.class,
                () -> runbook(c -> c.put("gpumeter.alert.causes.quota.verify", " ")));
        assertTrue(blank.getMessage().startsWith("gpumeter.alert.causes.quota.verify"), blank.getMessage());
        RuntimeException noVerify = assertThrows(RuntimeException.class,
                () -> runbook(c -> c.remove("gpumeter.alert.causes.quota.verify")));
        assertTrue(noVerify.getMessage().contains("gpumeter.alert.causes.quota.verify"), noVerify.getMessage());
    }

    @Test
    void aPlatformTeamsOverrideTakesThePlaceOfTheShippedEntry() {
        CauseRunbook runbook = runbook(c -> {
            c.keySet().removeIf(k -> k.startsWith("gpumeter.alert.causes.queued.steps"));
            c.put("gpumeter.alert.causes.queued.steps[0]", "Page #gpu-queue, then wait");
            c.put("gpumeter.alert.causes.xid-31.steps[0]", "Ask the owner, then rerun with compute-sanitizer");
        });
        assertEquals("Page #gpu-queue, then wait", runbook.fix("queued").orElseThrow().action(),
                "one step, no numbering; commas stay in the step");
        assertEquals("Ask the owner, then rerun with compute-sanitizer", runbook.fix("xid-31").orElseThrow().action());
    }
}
