package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.RootCauseClass;

import io.gpumeter.common.fact.GpuAddressFact;
import io.gpumeter.common.fact.UsageField;
import io.gpumeter.common.fact.UsageSample;
import io.gpumeter.common.fact.UsageScope;
import io.gpumeter.common.fact.XidFact;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.gpumeter.ledger.governance.domain.Facts.t;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class DcgmXidIncidentsTest {

    static final String CARD = "GPU-d1";
    static final Duration TOLERANCE = Duration.ofMinutes(2);

    static XidReading read(String at, int code) {
        return new XidReading(CARD, t(at), code, "gpu-3");
    }

    static UsageSample sample(String uuid, UsageField field, double value, String at) {
        return new UsageSample(uuid, "gpu-3", UsageScope.DEVICE, "", null, null, null, null, field, value, t(at));
    }

    @Test
    void aDeliveryKeepsTheFirstAndLastReadingOfEachRunPerCard() {
        List<UsageSample> samples = new ArrayList<>();
        // Card d1 scraped every 30 s: 0, 0, 0, 31, 31, 0; card d2: 0, 0; an SM_ACTIVE sample is no Xid reading.
        int[] d1 = {0, 0, 0, 31, 31, 0};
        for (int i = 0; i < d1.length; i++) {
            samples.add(sample(CARD, UsageField.XID, d1[i], "2026-06-01T00:0" + (i / 2) + ":" + (i % 2 == 0 ? "00" : "30") + "Z"));
        }
        samples.add(sample("GPU-d2", UsageField.XID, 0, "2026-06-01T00:00:00Z"));
        samples.add(sample("GPU-d2", UsageField.XID, 0, "2026-06-01T00:00:30Z"));
        samples.add(sample(CARD, UsageField.SM_ACTIVE, 0.5, "2026-06-01T00:00:00Z"));
        List<XidReading> kept = XidReading.runBoundaries(samples);
        assertEquals(List.of(read("2026-06-01T00:00:00Z", 0), read("2026-06-01T00:01:00Z", 0), read("2026-06-01T00:01:30Z", 31),
                read("2026-06-01T00:02:00Z", 31), read("2026-06-01T00:02:30Z", 0)),
                kept.subList(0, 5), "0 at 00:00 and 01:00 bound the run of zeros; 31 at 01:30 and 02:00; the last 0");
        assertEquals(List.of(t("2026-06-01T00:00:00Z"), t("2026-06-01T00:00:30Z")),
                kept.subList(5, 7).stream().map(XidReading::at).toList());
    }

    @Test
    void repeatedScrapesOfOneValueAreOneXidAndAZeroBetweenMakesTheNextReportNew() {
        // 31 (application) appears at 01:00 and is scraped again at 01:30 and 02:00; the exporter restarts (0 at
        // 03:00); 31 again at 04:00: two application Xids, each recovered at once.
        List<XidReading> readings = List.of(read("2026-06-01T00:00:00Z", 0), read("2026-06-01T01:00:00Z", 31),
                read("2026-06-01T01:30:00Z", 31), read("2026-06-01T02:00:00Z", 31), read("2026-06-01T03:00:00Z", 0),
                read("2026-06-01T04:00:00Z", 31));
        List<Incident> incidents = DcgmXidIncidents.derive(CARD, readings, List.of(), List.of(), TOLERANCE);
        assertEquals(2, incidents.size());
        assertEquals(List.of(t("2026-06-01T01:00:00Z"), t("2026-06-01T04:00:00Z")), incidents.stream().map(Incident::startedAt).toList());
        assertEquals(Duration.ZERO, incidents.get(0).repair());
        assertEquals("xid-31", incidents.get(0).cause());
        assertEquals(RootCauseClass.WORKLOAD, incidents.get(0).rootCause());
        assertEquals(CARD, incidents.get(0).gpuUuid());
        assertEquals("gpu-3", incidents.get(0).node());
    }

    @Test
    void aHardwareXidRecoversWhenTheGaugeReadsZeroOrTheDriverAnnouncesTheCard() {
        // 48 at 10:00 held until the gauge reads 0 at 10:45 (2700 s); 79 at 11:00 (the card lost), the driver
        // announces the card again at 11:20 (1200 s) though the gauge still reads 79 at 11:30.
        List<XidReading> readings = List.of(read("2026-06-01T09:00:00Z", 0), read("2026-06-01T10:00:00Z", 48),
                read("2026-06-01T10:44:30Z", 48), read("2026-06-01T10:45:00Z", 0), read("2026-06-01T11:00:00Z", 79),
                read("2026-06-01T11:30:00Z", 79));
        List<Incident> incidents = DcgmXidIncidents.derive(CARD, readings, List.of(),
                List.of(new GpuAddressFact("gpu-3", "0000:3b:00", CARD, t("2026-06-01T11:20:00Z"))), TOLERANCE);
        assertEquals(List.of("xid-48", "gpu-lost"), incidents.stream().map(Incident::cause).toList());
        assertEquals(Duration.ofSeconds(2700), incidents.get(0).repair());
        assertEquals(RootCauseClass.DATA_PLANE, incidents.get(0).rootCause());
        assertEquals(Duration.ofSeconds(1200), incidents.get(1).repair());
        assertEquals("0000:3b:00", incidents.get(1).gpuPci(), "the announcement names the card's address");
    }

    @Test
    void aChangeTheKernelLogAlreadyReportedIsNotCountedAgain() {
        List<XidReading> readings = List.of(read("2026-06-01T00:00:00Z", 0), read("2026-06-01T05:00:30Z", 79),
                read("2026-06-01T06:00:00Z", 0), read("2026-06-01T07:00:00Z", 94));
        XidFact kernel = new XidFact("gpu-3", "0000:3b:00", CARD, t("2026-06-01T05:00:00Z"), 79, 0L, null, "fallen off the bus", "kmsg");
        XidFact otherCode = new XidFact("gpu-3", "0000:3b:00", CARD, t("2026-06-01T07:00:10Z"), 48, 0L, null, "DBE", "kmsg");
        List<Incident> incidents = DcgmXidIncidents.derive(CARD, readings, List.of(kernel, otherCode), List.of(), TOLERANCE);
        assertEquals(1, incidents.size(), "79 within 30 s of the kernel's report is that report; 94 is new");
        assertEquals("xid-94", incidents.get(0).cause());
        assertNull(incidents.get(0).recoveredAt());
    }

    @Test
    void aCardFirstReadWithACodeCountsThatCodeOnce() {
        List<Incident> incidents = DcgmXidIncidents.derive(CARD, List.of(read("2026-06-01T00:00:00Z", 13),
                read("2026-06-01T00:00:30Z", 13)), List.of(), List.of(), TOLERANCE);
        assertEquals(1, incidents.size());
        assertEquals(t("2026-06-01T00:00:00Z"), incidents.get(0).startedAt());
    }
}
