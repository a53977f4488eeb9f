package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.gpumeter.console.PagesTest.nav;
import static io.gpumeter.console.PagesTest.option;
import static io.gpumeter.console.PagesTest.page;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Changes page over the stand-in ledger's change book (answered as the ledger's ChangeResource answers), its
 * figures against the API's own answer, its lanes per pool as the book's items name them, a 2,000-node cluster's week,
 * and the changes marked on the Failures, Jitter and Card pages from one bulk read each.
 */
@QuarkusTest
@QuarkusTestResource(value = StandInResource.class, restrictToAnnotatedClass = false)
class ChangesPagesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String WEEK = "from=2026-11-23&to=2026-12-01";
    private static final String WEEK_API = "from=2026-11-23T00%3A00%3A00Z&to=2026-12-01T00%3A00%3A00Z";
    /** A counts row: pool, kind, changes, nodes, by gpumeter. */
    private static final Pattern COUNT = Pattern.compile("<tr data-pool=\"([^\"]*)\" data-kind=\"([A-Z_]+)\">(?:<td>[^<]*</td>)?<td><a href=\"[^\"]*\">"
            + "[A-Z_]+</a></td><td class=\"num\">(\\d+)</td><td class=\"num\">(\\d+)</td><td class=\"num\">(\\d+)</td>");

    @BeforeEach
    void reset() {
        StandIn.reset();
    }

    @Test
    void theBookPerPoolAndKindOnATimeAxisWithEachChangeBeforeAndAfter() throws IOException {
        String html = page("/changes?" + WEEK, Fixtures.ADMIN);
        assertEquals(List.of("/api/v1/changes?" + WEEK_API + "&limit=10000&offset=0"),
                StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).sorted().toList(), "one read of the book, whose items name their pools");
        // the pools are the items' own: gpu-a's pool label, gpu-b's card model; the quota and the DaemonSet's image are cluster-wide
        Map<String, List<Integer>> counts = toLists(counts(html));
        Map<String, List<Integer>> expected = new TreeMap<>();
        expected.put("cluster-wide|COMPONENT_VERSION", List.of(1, 0, 0));
        expected.put("cluster-wide|QUOTA", List.of(1, 0, 0));
        expected.put("NVIDIA-A100-SXM4-80GB|NODE_LABEL", List.of(2, 1, 0));
        expected.put("NVIDIA-A100-SXM4-80GB|GPU_ALLOCATABLE", List.of(2, 1, 0));
        expected.put("NVIDIA-A100-SXM4-80GB|MIG_LAYOUT", List.of(1, 1, 0));
        expected.put("NVIDIA-A100-SXM4-80GB|COMPONENT_HEALTH", List.of(2, 1, 0));
        expected.put("training|NODE_CORDONED", List.of(1, 1, 1));
        expected.put("training|NODE_LABEL", List.of(1, 1, 0));
        expected.put("training|DRIVER_VERSION", List.of(1, 1, 0));
        expected.put("training|CUDA_VERSION", List.of(1, 1, 0));
        expected.put("training|COMPONENT_VERSION", List.of(1, 1, 0));
        assertEquals(expected, counts, "changes, nodes and the suite's own per pool and kind");
        assertEquals(apiCounts("/api/v1/changes?" + WEEK_API), counts, "the page's counts are the API's");

        // the newest first, each with before → after and its source; the suite's own cordon marked as such
        String driver = ChangeBookStandIn.LAB.stream().filter(c -> c.kind().equals("DRIVER_VERSION")).findFirst().orElseThrow().id();
        assertTrue(html.contains("<h2>Changes 1–14 of 14, newest first</h2>"), html);
        assertTrue(html.contains("<tr data-change=\"" + driver + "\" class=\"\"><td class=\"at\">2026-11-30T09:40:00Z</td><td><a href=\"/changes?from=2026-11-23&amp;"
                + "to=2026-12-01&amp;node=gpu-a&amp;cluster=lab\">gpu-a</a></td><td>training</td><td>DRIVER_VERSION</td><td></td>"
                + "<td>550.54.15 → 560.35.03</td><td class=\"num\">1</td><td>node labels</td><td><a href=\"/changes?from=2026-11-23&amp;"
                + "to=2026-12-01&amp;change=" + driver + "#impact\""), html);
        assertTrue(html.contains("<td class=\"at\">2026-11-30T10:00:30Z</td><td><a href=\"/changes?from=2026-11-23&amp;to=2026-12-01&amp;node=gpu-a&amp;"
                + "cluster=lab\">gpu-a</a></td><td>training</td><td>NODE_CORDONED</td><td></td><td>schedulable → cordoned</td>"
                + "<td class=\"num\">1</td><td><span class=\"suite\">made by gpumeter</span> gpumeter alert-service: cordon (Xid 79)</td>"), html);
        assertTrue(html.contains("class=\" by-suite\""), "the suite's row is styled apart");
        assertTrue(html.contains("<td>lab (cluster-wide)</td><td>cluster-wide</td><td>QUOTA</td><td>clusterqueue/team-a-cq[default]:nvidia.com/gpu</td>"
                + "<td>nominal=8 → nominal=16</td>"), html);
        assertTrue(html.contains("<td>example.com/flap</td><td>a → b</td><td class=\"num\">5</td>"), "a flapping label, its count in the minute");
        String table = html.substring(html.indexOf("id=\"changes-table\""));
        assertTrue(table.indexOf("2026-11-30T10:15:00Z") < table.indexOf("2026-11-29T01:00:00Z"), "newest first");
        assertFalse(html.contains("2026-11-20T00:00:00Z"), "a change before the window is not in it");

        // one point per change at its instant, in its pool's lane of its kind, the suite's own drawn hollow
        JsonNode chart = chart(html, "changes-chart");
        List<String> lanes = new ArrayList<>();
        chart.path("yAxis").get(0).path("data").forEach(l -> lanes.add(l.asText()));
        assertEquals(List.of("cluster-wide · COMPONENT_VERSION", "cluster-wide · QUOTA", "NVIDIA-A100-SXM4-80GB · NODE_LABEL",
                "NVIDIA-A100-SXM4-80GB · GPU_ALLOCATABLE", "NVIDIA-A100-SXM4-80GB · MIG_LAYOUT", "NVIDIA-A100-SXM4-80GB · COMPONENT_HEALTH",
                "training · NODE_CORDONED", "training · NODE_LABEL", "training · DRIVER_VERSION", "training · CUDA_VERSION",
                "training · COMPONENT_VERSION"), lanes);
        assertEquals("[\"1\",\"1\",\"2\",\"2\",\"1\",\"2\",\"1\",\"1\",\"1\",\"1\",\"1\"]", chart.path("yAxis").get(1).path("data").toString(),
                "each lane's count at its right end");
        JsonNode cordon = point(chart, "NODE_CORDONED", 0);
        assertEquals("[\"2026-11-30T10:00:30Z\",\"training · NODE_CORDONED\"]", cordon.path("value").toString());
        assertEquals("emptyCircle", cordon.path("symbol").asText());
        assertEquals("/changes?from=2026-11-23&to=2026-12-01&node=gpu-a&cluster=lab", cordon.path("link").asText(), "a change leads to its node's lane");
        assertEquals(14, points(chart), "every change drawn by itself");
        assertTrue(html.contains("<code>GET</code> <a href=\"" + StandIn.url(Backend.LEDGER) + "/api/v1/changes?" + WEEK_API.replace("&", "&amp;")), html);
        assertTrue(nav(html).contains("href=\"/changes\" class=\"active\""), nav(html));
    }

    @Test
    void kindsAndAPoolNarrowThePage() {
        String html = page("/changes?" + WEEK + "&kind=cuda_version&kind=DRIVER_VERSION", Fixtures.ADMIN);
        assertTrue(StandIn.seen().stream().anyMatch(s -> s.pathAndQuery().equals("/api/v1/changes?" + WEEK_API + "&kind=DRIVER_VERSION,CUDA_VERSION"
                + "&limit=10000&offset=0")), StandIn.seen().toString());
        assertTrue(html.contains("<h2>Changes 1–2 of 2, newest first</h2>") && html.contains("value=\"DRIVER_VERSION\" checked"), html);

        html = page("/changes?" + WEEK + "&pool=NVIDIA-A100-SXM4-80GB", Fixtures.ADMIN);
        assertEquals(List.of("NVIDIA-A100-SXM4-80GB"), toLists(counts(html)).keySet().stream().map(k -> k.split("\\|")[0]).distinct().toList());
        assertTrue(html.contains("<h2>Changes 1–7 of 7, newest first</h2>") && !html.contains(">gpu-a</a>"), html);
        assertTrue(html.contains("<option value=\"NVIDIA-A100-SXM4-80GB\" selected>"), html);

        StandIn.reset();
        html = page("/changes?" + WEEK + "&kind=NODE_MOVED", Fixtures.ADMIN);
        assertTrue(html.contains("That kind of change is not offered") && html.contains("got &#39;NODE_MOVED&#39;"), html);
        html = page("/changes?" + WEEK + "&offset=-3", Fixtures.ADMIN);
        assertTrue(html.contains("offset must be a whole number from 0"), html);
        html = page("/changes?" + WEEK + "&node=gpu-a&cluster=Not_A_Label", Fixtures.ADMIN);
        assertTrue(html.contains("cluster must be a DNS label"), html);
        assertTrue(StandIn.seen().isEmpty(), "nothing asked on unreadable input: " + StandIn.seen());
        html = page("/changes?from=2026-11-23&to=2026-11-24", Fixtures.ADMIN);
        assertTrue(html.contains("No change between 2026-11-23 and 2026-11-24."), html);
    }

    @Test
    void aNodesLaneWithWhatItsGpuStackOfferedAndAChangesImpact() throws IOException {
        String html = page("/changes?" + WEEK + "&node=gpu-b&cluster=lab", Fixtures.ADMIN);
        assertEquals(List.of("/api/v1/changes?" + WEEK_API + "&cluster=lab&node=gpu-b&limit=10000&offset=0",
                        "/api/v1/nodes/gpu-b/gpu-stack?cluster=lab&at=2026-12-01T00%3A00%3A00Z"),
                StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).toList());
        JsonNode chart = chart(html, "changes-chart");
        List<String> lanes = new ArrayList<>();
        chart.path("yAxis").get(0).path("data").forEach(l -> lanes.add(l.asText()));
        assertEquals(List.of("NODE_LABEL", "GPU_ALLOCATABLE", "MIG_LAYOUT", "COMPONENT_HEALTH"), lanes, "one lane per kind of the node's changes");
        assertEquals(7, points(chart));
        assertTrue(html.contains("<tr data-pool=\"\" data-kind=\"GPU_ALLOCATABLE\"><td><a href=\"/changes?from=2026-11-23&amp;to=2026-12-01&amp;"
                + "kind=GPU_ALLOCATABLE&amp;node=gpu-b&amp;cluster=lab\">GPU_ALLOCATABLE</a></td><td class=\"num\">2</td><td class=\"num\">1</td>"), html);
        assertTrue(html.contains("<td class=\"at\">2026-11-29T03:10:00Z</td><td>gpu-b</td><td>COMPONENT_HEALTH</td><td>device-plugin</td><td>Ready → CrashLoopBackOff</td>"), html);
        // data plane or control plane: what the node offered at the window's end
        assertTrue(html.contains("What gpu-b's GPU stack offered at 2026-12-01T00:00:00Z"), html);
        assertTrue(html.contains("<tr class=\"\" data-resource=\"nvidia.com/gpu\"><td>nvidia.com/gpu</td><td class=\"num\">2</td><td class=\"num\">2</td></tr>"), html);
        assertTrue(html.contains("<td>device-plugin</td><td>v0.15.0</td><td>gpu-operator/nvidia-device-plugin-daemonset-x7k2p</td><td>Ready</td>"), html);
        assertTrue(html.contains("MIG all-3g.40gb (success)") && html.contains("driver 550.54.15"), html);

        // in the crash loop, the node offered none of its GPUs
        StandIn.reset();
        html = page("/changes?from=2026-11-23&to=2026-11-29&node=gpu-b&cluster=lab", Fixtures.ADMIN);
        assertTrue(html.contains("No change on gpu-b between 2026-11-23 and 2026-11-29."), html);

        StandIn.reset();
        String driver = ChangeBookStandIn.LAB.stream().filter(c -> c.kind().equals("DRIVER_VERSION")).findFirst().orElseThrow().id();
        html = page("/changes?" + WEEK + "&node=gpu-a&cluster=lab&change=" + driver, Fixtures.ADMIN);
        assertTrue(StandIn.seen().stream().anyMatch(s -> s.pathAndQuery().equals("/api/v1/changes/" + driver + "/impact")), StandIn.seen().toString());
        assertTrue(html.contains("What the change did: gpu-a DRIVER_VERSION 550.54.15 → 560.35.03 at 2026-11-30T09:40:00Z"), html);
        assertTrue(html.contains("<tr data-side=\"before\"><td>before</td><td>2026-11-29T09:40:00Z</td><td>2026-11-30T09:40:00Z</td>"
                + "<td class=\"num\">20.00</td><td class=\"num\">12</td><td class=\"num\">0</td><td class=\"num\">0.00</td>"), html);
        assertTrue(html.contains("<tr data-side=\"after\"><td>after</td><td>2026-11-30T09:40:00Z</td><td>2026-12-01T09:40:00Z</td>"
                + "<td class=\"num\">20.00</td><td class=\"num\">10</td><td class=\"num\">2</td><td class=\"num\">100.00</td>"
                + "<td class=\"num\">10 min</td>"), html);
        assertTrue(html.contains("<tr data-xid=\"Xid 79\"><td>Xid 79</td><td class=\"num\">0</td><td class=\"num\">2</td>"), html);
        assertTrue(html.contains("<tr data-cause=\"gpu-lost\"><td>gpu-lost</td><td class=\"num\">0</td><td class=\"num\">2</td>"), html);
        String impactChart = option(html, "impact-chart");
        assertTrue(impactChart.contains("[\"all failures\",\"gpu-lost\"]") && impactChart.contains("[0.0,0.0]")
                && impactChart.contains("[100.0,100.0]"), impactChart);
        assertTrue(html.contains("<tr data-change=\"" + driver + "\" class=\"chosen\">"), "the change is highlighted in its lane's table");

        StandIn.reset();
        html = page("/changes?" + WEEK + "&change=0000", Fixtures.ADMIN);
        assertTrue(html.contains("ledger-service answered 404") && html.contains("no change 0000"), html);
    }

    @Test
    void aTenantHasNoMenuEntryAndReadsTheLedgersRefusal() {
        String html = page("/changes?" + WEEK, Fixtures.ACME);
        assertFalse(nav(html).contains("/changes"), "no menu entry for a tenant");
        assertTrue(html.contains("ledger-service refused: you may not see this"), html);
        assertFalse(html.contains("gpu-a") || html.contains("DRIVER_VERSION →"), html);
        assertTrue(nav(page("/changes?" + WEEK, Fixtures.ADMIN)).contains("href=\"/changes\""));
    }

    @Test
    void whatTheBookSaysIsShownAsTextNeverAsMarkup() {
        ChangeBookStandIn.use(new ChangeBookStandIn.Book(List.of(ChangeBookStandIn.change("2026-11-30T08:00:00Z", "lab", "gpu-a", "<i>pool</i>", "NODE_LABEL",
                "example.com/<img src=x onerror=alert(1)>", "\"><script>alert('before')</script>", "<b>after</b>",
                "pod team-x/<script>alert('source')</script>", 1)), ChangeBookStandIn.LAB_MODELS, ChangeBookStandIn.LAB_CARDS));
        String html = page("/changes?" + WEEK, Fixtures.ADMIN);
        assertFalse(html.contains("<script>alert") || html.contains("<img src=x") || html.contains("<b>after"), html);
        assertTrue(html.contains("&lt;script&gt;alert(&#39;source&#39;)&lt;/script&gt;") && html.contains("&lt;b&gt;after&lt;/b&gt;"), html);
        String chart = option(html, "changes-chart");
        assertFalse(chart.contains("<"), "the chart's data carries no markup: " + chart);
        assertTrue(chart.contains("\\u003cscript\\u003ealert('source')"), chart);
        assertTrue(html.contains("<td>&lt;i&gt;pool&lt;/i&gt;</td>") && !html.contains("<i>pool"), "the pool too");
    }

    @Test
    void eachChangeIsInThePoolItsNodeWasInThenAsTheBookNamesIt() throws IOException {
        // gpu-a relabelled from training into inference between its driver and its CUDA upgrade; gpu-b's row stored
        // before the book named pools
        ChangeBookStandIn.use(new ChangeBookStandIn.Book(List.of(
                ChangeBookStandIn.change("2026-11-29T08:00:00Z", "lab", "gpu-a", "training", "DRIVER_VERSION", null, "550.54.15",
                        "560.35.03", "node labels", 1),
                ChangeBookStandIn.change("2026-11-29T09:00:00Z", "lab", "gpu-a", "inference", "NODE_LABEL", "gpumeter.io/pool", "training",
                        "inference", "node labels", 1),
                ChangeBookStandIn.change("2026-11-29T10:00:00Z", "lab", "gpu-a", "inference", "CUDA_VERSION", null, "12.4", "12.6",
                        "node labels", 1),
                ChangeBookStandIn.change("2026-11-29T11:00:00Z", "lab", "gpu-b", null, "GPU_ALLOCATABLE", "nvidia.com/gpu", "2", "0",
                        "node status", 1)), ChangeBookStandIn.LAB_MODELS, ChangeBookStandIn.LAB_CARDS));
        String html = page("/changes?" + WEEK, Fixtures.ADMIN);
        assertEquals(List.of("/api/v1/changes?" + WEEK_API + "&limit=10000&offset=0"),
                StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).toList(), "no read of the nodes beside the book");
        JsonNode chart = chart(html, "changes-chart");
        List<String> lanes = new ArrayList<>();
        chart.path("yAxis").get(0).path("data").forEach(l -> lanes.add(l.asText()));
        assertEquals(List.of("inference · NODE_LABEL", "inference · CUDA_VERSION", "training · DRIVER_VERSION", "unknown · GPU_ALLOCATABLE"),
                lanes, "one node in two pools, each change in the one of its time");
        Map<String, List<Integer>> counts = toLists(counts(html));
        assertEquals(List.of("inference|CUDA_VERSION", "inference|NODE_LABEL", "training|DRIVER_VERSION", "unknown|GPU_ALLOCATABLE"),
                List.copyOf(counts.keySet()));
        assertEquals(apiCounts("/api/v1/changes?" + WEEK_API), counts);
        assertTrue(html.contains("<option value=\"inference\">inference</option><option value=\"training\">training</option>"
                + "<option value=\"unknown\">unknown</option>"), html);

        html = page("/changes?" + WEEK + "&pool=training", Fixtures.ADMIN);
        assertTrue(html.contains("<h2>Changes 1–1 of 1, newest first</h2>") && html.contains("<td>550.54.15 → 560.35.03</td>")
                && !html.contains("12.4 → 12.6"), html);
    }

    @Test
    void twoThousandNodesAreCountedPerPoolKindAndHourAndTheTablePaged() throws IOException {
        ChangeBookStandIn.Book fleet = ChangeBookStandIn.fleet(2000, Instant.parse("2026-11-23T06:00:00Z"));
        ChangeBookStandIn.use(fleet);
        String week = "from=2026-11-23&to=2026-11-30";
        String weekApi = "from=2026-11-23T00%3A00%3A00Z&to=2026-11-30T00%3A00%3A00Z";
        long started = System.nanoTime();
        String html = page("/changes?" + week, Fixtures.ADMIN);
        long millis = (System.nanoTime() - started) / 1_000_000;
        int total = (int) fleet.items().stream().filter(c -> !c.at().isBefore(Instant.parse("2026-11-23T00:00:00Z"))
                && c.at().isBefore(Instant.parse("2026-11-30T00:00:00Z"))).count();
        assertTrue(total > 10_000, "more than one page of the list: " + total);
        assertEquals(List.of("/api/v1/changes?" + weekApi + "&limit=10000&offset=0", "/api/v1/changes?" + weekApi + "&limit=10000&offset=10000"),
                StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).sorted().toList(), "the book a page of 10,000 at a time");
        // counted per pool, kind and hour: a cell per lane and hour that holds any, the counts adding up to every change
        JsonNode chart = chart(html, "changes-chart");
        int lanes = chart.path("yAxis").get(0).path("data").size();
        // each pool: the device plugin's version and health, driver, CUDA, cordon and uncordon; A100's MIG layout and
        // label besides; cluster-wide, the DaemonSet's version and the quotas
        assertEquals(4 * 6 + 2 + 2, lanes, chart.path("yAxis").get(0).path("data").toString());
        assertEquals(168, chart.path("xAxis").path("data").size(), "a week of hours");
        assertEquals("11-23 00:00", chart.path("xAxis").path("data").get(0).asText());
        assertEquals("heatmap", chart.path("series").get(0).path("type").asText());
        int cells = points(chart);
        assertTrue(cells <= lanes * 168 && cells < 400, "legible: " + cells + " cells");
        long counted = 0;
        JsonNode driverH100 = null;
        for (JsonNode p : chart.path("series").get(0).path("data")) {
            counted += p.path("value").get(2).asLong();
            String laneName = chart.path("yAxis").get(0).path("data").get(p.path("value").get(1).asInt()).asText();
            if (driverH100 == null && laneName.equals("NVIDIA-H100-80GB-HBM3 · DRIVER_VERSION")) {
                driverH100 = p;
            }
        }
        assertEquals(total, counted, "every change counted once");
        assertTrue(html.contains("Changes counted per hour"), "the caption says how they are counted");
        // gpu-0000 … gpu-0359 upgrade in the first hour, one every 10 s from 06:00 on the 24th
        assertEquals("[30,18,360]", driverH100.path("value").toString());
        assertEquals("500", chart.path("yAxis").get(1).path("data").get(18).asText(), "the lane's count at its right end");
        assertTrue(driverH100.path("label").path("show").asBoolean(), "the lane's busiest hour carries its count");
        assertEquals("NVIDIA-H100-80GB-HBM3 · DRIVER_VERSION: 360 change(s) on 360 node(s), 2026-11-24T06:00:00Z – 2026-11-24T07:00:00Z",
                driverH100.path("name").asText());
        assertEquals("/changes?from=2026-11-24&to=2026-11-25&kind=DRIVER_VERSION&pool=NVIDIA-H100-80GB-HBM3", driverH100.path("link").asText());
        // the darkest cell is the busiest: the H100 pool's device-plugin pods, each NotReady and Ready again, in one hour
        assertEquals(1000, chart.path("visualMap").path("max").asInt());

        // the counts per pool and kind are the API's, read whole
        assertEquals(apiCounts("/api/v1/changes?" + weekApi), toLists(counts(html)));
        assertEquals(List.of(500, 500, 0), toLists(counts(html)).get("NVIDIA-A10|DRIVER_VERSION"));
        assertEquals(List.of(10, 10, 10), toLists(counts(html)).get("NVIDIA-H100-80GB-HBM3|NODE_CORDONED"));

        // the table a page at a time
        assertTrue(html.contains("<h2>Changes 1–50 of " + total + ", newest first</h2>"), html.substring(0, 2000));
        assertEquals(50, rows(html));
        assertTrue(html.contains("<a href=\"/changes?from=2026-11-23&amp;to=2026-11-30&amp;offset=50\">older &rarr;</a>"), "a next page");
        String second = page("/changes?" + week + "&offset=50", Fixtures.ADMIN);
        assertTrue(second.contains("<h2>Changes 51–100 of " + total + ", newest first</h2>") && second.contains("&larr; newer"));
        assertEquals(50, rows(second));
        assertTrue(millis < 20_000, "the page took " + millis + " ms");

        // one pool
        String a10 = page("/changes?" + week + "&pool=NVIDIA-A10", Fixtures.ADMIN);
        assertEquals(List.of("NVIDIA-A10"), toLists(counts(a10)).keySet().stream().map(k -> k.split("\\|")[0]).distinct().toList());
        // one node's lane among them
        String lane = page("/changes?" + week + "&node=gpu-1999&cluster=prod", Fixtures.ADMIN);
        assertEquals(6, points(chart(lane, "changes-chart")), "gpu-1999's own changes one by one");
    }

    @Test
    void failuresMarkTheChangesOfTheirNodesOnTheirTimeAxis() throws IOException {
        String html = page("/failures?" + WEEK + "&groupBy=cause", Fixtures.ADMIN);
        assertTrue(StandIn.seen().stream().anyMatch(s -> s.pathAndQuery().equals("/api/v1/failures/incidents?" + WEEK_API + "&limit=1000")),
                StandIn.seen().toString());
        List<StandIn.Seen> bulk = StandIn.seen().stream().filter(s -> s.pathAndQuery().equals("/api/v1/changes/bulk")).toList();
        assertEquals(1, bulk.size(), "one bulk read for the page");
        assertEquals("{\"scopes\":[{\"cluster\":\"lab\",\"node\":\"gpu-a\",\"from\":\"2026-11-23T00:00:00Z\",\"to\":\"2026-12-01T00:00:00Z\","
                + "\"limit\":200,\"newestFirst\":false}]}", bulk.get(0).body());
        JsonNode timeline = chart(html, "failures-timeline");
        assertEquals("[\"2026-11-30T10:00:00Z\",\"XID_79\"]", timeline.path("series").get(0).path("data").get(0).path("value").toString());
        List<JsonNode> marks = marks(timeline);
        List<String> at = marks.stream().map(l -> l.path("xAxis").asText() + " " + l.path("label").path("formatter").asText()).toList();
        // gpu-a's changes and the lab's cluster-wide ones, not gpu-b's
        assertEquals(List.of("2026-11-29T01:00:00Z QUOTA clusterqueue/team-a-cq[default]:nvidia.com/gpu",
                "2026-11-29T03:00:00Z COMPONENT_VERSION device-plugin", "2026-11-30T04:00:00Z NODE_LABEL example.com/flap",
                "2026-11-30T09:40:00Z CUDA_VERSION", "2026-11-30T09:40:00Z DRIVER_VERSION", "2026-11-30T10:00:30Z NODE_CORDONED",
                "2026-11-30T10:15:00Z COMPONENT_VERSION dcgm-exporter"), at);
        assertEquals("dotted", marks.get(5).path("lineStyle").path("type").asText(), "the suite's cordon");
        assertEquals("2026-11-30T09:40:00Z gpu-a DRIVER_VERSION: 550.54.15 → 560.35.03 — node labels", marks.get(4).path("name").asText());
        // a series per kind: the legend names the colours
        List<String> names = new ArrayList<>();
        timeline.path("series").forEach(x -> names.add(x.path("name").asText()));
        assertEquals(List.of("open", "recovered", "ended unrecovered", "QUOTA", "COMPONENT_VERSION", "NODE_LABEL", "CUDA_VERSION",
                "DRIVER_VERSION", "NODE_CORDONED"), names);
        assertTrue(html.contains("<a href=\"/changes?from=2026-11-23&amp;to=2026-12-01\">Every change in this window</a>"), html);
    }

    @Test
    void jitterMarksTheChangesOfTheServicesNodesAndListsTheDayBefore() throws IOException {
        String html = page("/jitter?window=24h&to=2026-11-30T12:00:00Z", Fixtures.ADMIN);
        assertTrue(StandIn.seen().stream().anyMatch(s -> s.pathAndQuery().equals("/api/v1/fleet/occupants?at=2026-11-30T10%3A20%3A00Z&namespace=acme-serve")),
                StandIn.seen().toString());
        List<StandIn.Seen> bulk = StandIn.seen().stream().filter(s -> s.pathAndQuery().equals("/api/v1/changes/bulk")).toList();
        assertEquals(1, bulk.size());
        assertEquals("{\"scopes\":[{\"cluster\":\"lab\",\"node\":\"gpu-a\",\"from\":\"2026-11-29T10:20:00Z\",\"to\":\"2026-11-30T10:41:00Z\","
                + "\"limit\":100,\"newestFirst\":true}]}", bulk.get(0).body());
        // within the curves' span 10:00–10:40: the suite's cordon and the dcgm-exporter update
        for (String chart : List.of("jitter-latency", "jitter-arrivals", "jitter-resources")) {
            List<String> at = marks(chart(html, chart)).stream().map(l -> l.path("xAxis").asText()).toList();
            assertEquals(List.of("2026-11-30T10:00:30Z", "2026-11-30T10:15:00Z"), at, chart);
        }
        assertTrue(html.contains("<td>5 min before</td><td class=\"at\">2026-11-30T10:15:00Z</td><td>gpu-a</td><td>COMPONENT_VERSION</td><td>dcgm-exporter</td>"
                + "<td>3.3.5-3.4.0-ubuntu22.04 → 3.3.7-3.4.2-ubuntu22.04</td>"), html);
        assertTrue(html.contains("<td>40 min before</td><td class=\"at\">2026-11-30T09:40:00Z</td><td>gpu-a</td><td>DRIVER_VERSION</td>"), html);
        assertTrue(html.contains("class=\"chosen by-suite\"><td>19 min 30 s before</td>"), "the cordon in the span, made by the suite");
        assertFalse(html.contains("2026-11-29T03:10:00Z"), "gpu-b's changes are not the service's");
    }

    @Test
    void theCardListsItsNodesChangesOverTheDayAndMarksTheTwoHours() throws IOException {
        String html = page("/fleet/card?uuid=GPU-aaaa-0001&at=" + Fixtures.AT, Fixtures.ADMIN);
        List<StandIn.Seen> bulk = StandIn.seen().stream().filter(s -> s.pathAndQuery().equals("/api/v1/changes/bulk")).toList();
        assertEquals("{\"scopes\":[{\"cluster\":\"lab\",\"node\":\"gpu-a\",\"from\":\"2026-11-29T12:00:00Z\",\"to\":\"2026-11-30T12:01:00Z\","
                + "\"limit\":200,\"newestFirst\":true}]}", bulk.get(0).body());
        List<String> listed = new ArrayList<>();
        Matcher m = Pattern.compile("<tr data-change=\"[0-9a-f]+\" class=\"([^\"]*)\"><td>([^<]*)</td><td class=\"at\">([^<]*)</td><td>[^<]*</td><td>([A-Z_]+)</td>")
                .matcher(html.substring(html.indexOf("id=\"card-changes\"")));
        while (m.find()) {
            listed.add(m.group(1).strip() + "|" + m.group(2) + "|" + m.group(3) + "|" + m.group(4));
        }
        assertEquals(List.of("chosen|1 h 45 min before|2026-11-30T10:15:00Z|COMPONENT_VERSION",
                "chosen by-suite|1 h 59 min before|2026-11-30T10:00:30Z|NODE_CORDONED",
                "|2 h 20 min before|2026-11-30T09:40:00Z|DRIVER_VERSION", "|2 h 20 min before|2026-11-30T09:40:00Z|CUDA_VERSION",
                "|8 h before|2026-11-30T04:00:00Z|NODE_LABEL"), listed);
        assertEquals(2, marks(chart(html, "usage-chart")).size(), "the two changes of the two hours drawn");

        StandIn.reset();
        String tenant = page("/fleet/card?uuid=GPU-aaaa-0001&at=" + Fixtures.AT, Fixtures.ACME);
        assertTrue(StandIn.seen().stream().noneMatch(s -> s.pathAndQuery().contains("/changes")), "a tenant reads no change book");
        assertFalse(tenant.contains("card-changes"), tenant);
    }

    // --- reading the page and the API -----------------------------------------------------------------------------

    /** The counts table: pool|kind to changes, nodes, by gpumeter. */
    private static Map<String, int[]> counts(String html) {
        Map<String, int[]> out = new TreeMap<>();
        Matcher m = COUNT.matcher(html);
        while (m.find()) {
            out.put(m.group(1) + "|" + m.group(2), new int[]{Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5))});
        }
        assertFalse(out.isEmpty(), "no counts table");
        return out;
    }

    private static Map<String, List<Integer>> toLists(Map<String, int[]> counts) {
        Map<String, List<Integer>> out = new TreeMap<>();
        counts.forEach((k, v) -> out.put(k, List.of(v[0], v[1], v[2])));
        return out;
    }

    /** What the stand-in ledger answers, whole, counted as the page should: per pool (as each item names it) and kind. */
    private static Map<String, List<Integer>> apiCounts(String pathAndQuery) throws IOException {
        String body = given().baseUri(StandIn.url(Backend.LEDGER)).header("Authorization", "Bearer " + Fixtures.ADMIN).urlEncodingEnabled(false)
                .get(pathAndQuery).then().statusCode(200).extract().asString();
        Map<String, List<String>> changes = new TreeMap<>();
        Map<String, Set<String>> nodes = new TreeMap<>();
        Map<String, Integer> suite = new TreeMap<>();
        for (JsonNode c : JSON.readTree(body)) {
            String node = c.path("node").isNull() ? null : c.path("node").asText();
            String pool = node == null ? "cluster-wide" : c.path("pool").isNull() ? "unknown" : c.path("pool").asText();
            String key = pool + "|" + c.path("kind").asText();
            changes.computeIfAbsent(key, k -> new ArrayList<>()).add(c.path("id").asText());
            Set<String> set = nodes.computeIfAbsent(key, k -> new HashSet<>());
            if (node != null) {
                set.add(node);
            }
            suite.merge(key, c.path("source").asText().startsWith("gpumeter ") ? 1 : 0, Integer::sum);
        }
        Map<String, List<Integer>> out = new TreeMap<>();
        changes.forEach((k, v) -> out.put(k, List.of(v.size(), nodes.get(k).size(), suite.get(k))));
        return out;
    }

    private static JsonNode chart(String html, String id) throws IOException {
        String option = option(html, id);
        return JSON.readTree(option.substring(option.indexOf('>') + 1));
    }

    private static JsonNode point(JsonNode chart, String kind, int index) {
        for (JsonNode s : chart.path("series")) {
            if (s.path("name").asText().equals(kind)) {
                return s.path("data").get(index);
            }
        }
        throw new AssertionError("no series " + kind + " in " + chart);
    }

    private static int points(JsonNode chart) {
        int n = 0;
        for (JsonNode s : chart.path("series")) {
            n += s.path("data").size();
        }
        return n;
    }

    /** Every change line a chart marks, by instant. */
    private static List<JsonNode> marks(JsonNode chart) {
        List<JsonNode> out = new ArrayList<>();
        chart.path("series").forEach(x -> x.path("markLine").path("data").forEach(l -> {
            if (l.has("name")) {
                out.add(l);
            }
        }));
        out.sort(Comparator.comparing(l -> l.path("xAxis").asText()));
        return out;
    }

    private static int rows(String html) {
        String table = html.substring(html.indexOf("id=\"changes-table\""), html.indexOf("</table>", html.indexOf("id=\"changes-table\"")));
        return table.split("<tr data-change=", -1).length - 1;
    }
}
