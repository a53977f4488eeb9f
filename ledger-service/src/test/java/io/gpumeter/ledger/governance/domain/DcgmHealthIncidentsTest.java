package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.RootCauseClass;

import io.gpumeter.common.fact.UsageField;
import io.gpumeter.common.fact.UsageSample;
import io.gpumeter.common.fact.UsageScope;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.gpumeter.ledger.governance.domain.Facts.t;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DcgmHealthIncidentsTest {

    static final String CARD = "GPU-h1";

    static HealthReading read(HealthSignal signal, String at, long value) {
        return new HealthReading(CARD, signal, t(at), value, "gpu-4");
    }

    static UsageSample sample(String uuid, UsageScope scope, UsageField field, double value, String at) {
        return new UsageSample(uuid, "gpu-4", scope, scope == UsageScope.DEVICE ? "" : "13", null, null, null, null, field, value, t(at));
    }

    static List<Incident> derive(HealthReading... readings) {
        return DcgmHealthIncidents.derive(CARD, List.of(readings));
    }

    @Test
    void aDeliveryKeepsTheFirstAndLastReadingOfEachRunPerCardAndSignal() {
        List<UsageSample> samples = new ArrayList<>();
        // The remap flag of h1 scraped every 30 s: 0, 0, 0, 1, 1; its DBE count 0, 2, 2, 2, 2; card h2's flag 0, 0.
        long[] flag = {0, 0, 0, 1, 1};
        long[] dbe = {0, 2, 2, 2, 2};
        for (int i = 0; i < flag.length; i++) {
            String at = "2026-06-01T00:0" + (i / 2) + ":" + (i % 2 == 0 ? "00" : "30") + "Z";
            samples.add(sample(CARD, UsageScope.DEVICE, UsageField.ROW_REMAP_FAILURE, flag[i], at));
            samples.add(sample(CARD, UsageScope.DEVICE, UsageField.ECC_DBE_VOLATILE, dbe[i], at));
        }
        samples.add(sample("GPU-h2", UsageScope.DEVICE, UsageField.ROW_REMAP_FAILURE, 0, "2026-06-01T00:00:00Z"));
        samples.add(sample("GPU-h2", UsageScope.DEVICE, UsageField.ROW_REMAP_FAILURE, 0, "2026-06-01T00:00:30Z"));
        // Not health signals: the Xid gauge, usage, and the persistent count of remapped rows.
        samples.add(sample(CARD, UsageScope.DEVICE, UsageField.XID, 48, "2026-06-01T00:00:00Z"));
        samples.add(sample(CARD, UsageScope.DEVICE, UsageField.SM_ACTIVE, 0.5, "2026-06-01T00:00:00Z"));
        samples.add(sample(CARD, UsageScope.DEVICE, UsageField.UNCORRECTABLE_REMAPPED_ROWS, 3, "2026-06-01T00:00:00Z"));
        List<HealthReading> kept = HealthReading.runBoundaries(samples);
        HealthSignal f = HealthSignal.ROW_REMAP_FAILURE;
        HealthSignal d = HealthSignal.ECC_DBE_VOLATILE;
        assertEquals(List.of(read(d, "2026-06-01T00:00:00Z", 0), read(d, "2026-06-01T00:00:30Z", 2), read(d, "2026-06-01T00:02:00Z", 2),
                        read(f, "2026-06-01T00:00:00Z", 0), read(f, "2026-06-01T00:01:00Z", 0), read(f, "2026-06-01T00:01:30Z", 1),
                        read(f, "2026-06-01T00:02:00Z", 1)),
                kept.subList(0, 7), "DBE: a lone 0, then 2 from 00:30 to 02:00; the flag: 0 00:00-01:00, 1 01:30-02:00");
        assertEquals(List.of(t("2026-06-01T00:00:00Z"), t("2026-06-01T00:00:30Z")),
                kept.subList(7, 9).stream().map(HealthReading::at).toList());
        assertEquals(9, kept.size());
    }

    @Test
    void aCardReadTwiceInOneSecondKeepsTheHigherValue() {
        // The device series and a MIG instance's copy, at 00:00:00.2 and 00:00:00.7: one second, the worse value.
        List<HealthReading> kept = HealthReading.runBoundaries(List.of(
                sample(CARD, UsageScope.DEVICE, UsageField.RETIRED_PAGES_PENDING, 0, "2026-06-01T00:00:00.200Z"),
                sample(CARD, UsageScope.MIG_INSTANCE, UsageField.RETIRED_PAGES_PENDING, 4, "2026-06-01T00:00:00.700Z")));
        assertEquals(List.of(read(HealthSignal.RETIRED_PAGES_PENDING, "2026-06-01T00:00:00Z", 4)), kept);
    }

    @Test
    void aRemapFailureIsOpenUntilTheFlagClears() {
        // 0 at 00:00, 1 at 01:00 scraped again at 01:30 and 02:00, 0 at 03:00: one incident of 7200 s.
        HealthSignal f = HealthSignal.ROW_REMAP_FAILURE;
        List<Incident> incidents = derive(read(f, "2026-06-01T00:00:00Z", 0), read(f, "2026-06-01T01:00:00Z", 1),
                read(f, "2026-06-01T01:30:00Z", 1), read(f, "2026-06-01T02:00:00Z", 1), read(f, "2026-06-01T03:00:00Z", 0));
        assertEquals(1, incidents.size());
        Incident i = incidents.get(0);
        assertEquals("gpu-health", i.cause());
        assertEquals(RootCauseClass.DATA_PLANE, i.rootCause());
        assertEquals("dcgm-health", i.scope());
        assertEquals(CARD, i.gpuUuid());
        assertEquals(CARD, i.subject());
        assertEquals("gpu-4", i.node());
        assertEquals(t("2026-06-01T01:00:00Z"), i.startedAt());
        assertEquals(Duration.ofSeconds(7200), i.repair());
        assertEquals(1, i.occurrences());
        assertEquals("DCGM_FI_DEV_ROW_REMAP_FAILURE changed from 0 to 1 (a row remap failed: the card needs a reset, "
                + "and a replacement if it fails again)", i.evidence());
    }

    @Test
    void theCardStaysUnhealthyUntilEverySignalClearsAndEachFurtherReportIsAnOccurrence() {
        // DBE 0 -> 2 at 01:00 opens; pending pages 0 -> 2 at 01:00:30 and up to 3 at 01:10 are two more reports;
        // the DBE count rising to 5 at 01:20 a fourth; DBE back to 0 at 02:00 (reset) but pages still pending until
        // 02:05: one incident 01:00 -> 02:05, 3900 s, 4 occurrences.
        HealthSignal d = HealthSignal.ECC_DBE_VOLATILE;
        HealthSignal p = HealthSignal.RETIRED_PAGES_PENDING;
        List<Incident> incidents = derive(read(d, "2026-06-01T00:00:00Z", 0), read(p, "2026-06-01T00:00:00Z", 0),
                read(d, "2026-06-01T01:00:00Z", 2), read(p, "2026-06-01T01:00:30Z", 2), read(p, "2026-06-01T01:10:00Z", 3),
                read(d, "2026-06-01T01:20:00Z", 5), read(d, "2026-06-01T02:00:00Z", 0), read(p, "2026-06-01T02:05:00Z", 0));
        assertEquals(1, incidents.size());
        assertEquals(t("2026-06-01T02:05:00Z"), incidents.get(0).recoveredAt());
        assertEquals(Duration.ofSeconds(3900), incidents.get(0).repair());
        assertEquals(4, incidents.get(0).occurrences());
        assertTrue(incidents.get(0).evidence().startsWith("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL changed from 0 to 2"));
    }

    @Test
    void aVolatileCountThatDropsButStaysAboveZeroCountedNewErrorsAfterAReset() {
        // DBE 4 at 00:00 (first read: counts), 1 at 00:30 (reset, then one new error: an occurrence), 0 at 01:00.
        // Pending pages 3 -> 1 is fewer pages waiting, no new report; they clear at 02:00.
        HealthSignal d = HealthSignal.ECC_DBE_VOLATILE;
        HealthSignal p = HealthSignal.RETIRED_PAGES_PENDING;
        List<Incident> dbe = derive(read(d, "2026-06-01T00:00:00Z", 4), read(d, "2026-06-01T00:30:00Z", 1),
                read(d, "2026-06-01T01:00:00Z", 0));
        assertEquals(1, dbe.size());
        assertEquals(2, dbe.get(0).occurrences());
        assertEquals(Duration.ofSeconds(3600), dbe.get(0).repair());
        assertEquals("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL first read as 4 (double-bit ECC errors since the driver loaded)",
                dbe.get(0).evidence());
        List<Incident> pages = derive(read(p, "2026-06-01T00:00:00Z", 0), read(p, "2026-06-01T01:00:00Z", 3),
                read(p, "2026-06-01T01:30:00Z", 1), read(p, "2026-06-01T02:00:00Z", 0));
        assertEquals(1, pages.get(0).occurrences());
        assertEquals(Duration.ofSeconds(3600), pages.get(0).repair());
    }

    @Test
    void aSignalClearingWhileAnotherTurnsBadInTheSameScrapeDoesNotSplitTheIncident() {
        HealthSignal f = HealthSignal.ROW_REMAP_FAILURE;
        HealthSignal r = HealthSignal.ROW_REMAP_PENDING;
        // Pending 1 from 00:10; at 00:20 pending reads 0 and failure 1 in one scrape; failure clears at 00:50.
        List<Incident> incidents = derive(read(r, "2026-06-01T00:00:00Z", 0), read(f, "2026-06-01T00:00:00Z", 0),
                read(r, "2026-06-01T00:10:00Z", 1), read(r, "2026-06-01T00:20:00Z", 0), read(f, "2026-06-01T00:20:00Z", 1),
                read(f, "2026-06-01T00:50:00Z", 0));
        assertEquals(1, incidents.size());
        assertEquals(Duration.ofSeconds(2400), incidents.get(0).repair());
        assertEquals(2, incidents.get(0).occurrences());
    }

    @Test
    void aCardHealthyAllAlongHasNoIncidentAndOneStillBadIsOpen() {
        HealthSignal f = HealthSignal.ROW_REMAP_FAILURE;
        assertEquals(List.of(), derive(read(f, "2026-06-01T00:00:00Z", 0), read(f, "2026-06-01T05:00:00Z", 0)));
        List<Incident> incidents = derive(read(f, "2026-06-01T00:00:00Z", 0), read(f, "2026-06-01T01:00:00Z", 1),
                read(f, "2026-06-01T02:00:00Z", 0), read(f, "2026-06-01T03:00:00Z", 1), read(f, "2026-06-01T04:00:00Z", 1));
        assertEquals(2, incidents.size(), "a 0 in between makes the next 1 a new failure");
        assertEquals(Duration.ofSeconds(3600), incidents.get(0).repair());
        assertEquals(t("2026-06-01T03:00:00Z"), incidents.get(1).startedAt());
        assertNull(incidents.get(1).recoveredAt());
        assertTrue(incidents.get(1).open());
        assertTrue(!incidents.get(0).key().equals(incidents.get(1).key()));
    }
}
