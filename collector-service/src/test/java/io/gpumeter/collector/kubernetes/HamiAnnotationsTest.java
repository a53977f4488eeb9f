package io.gpumeter.collector.kubernetes;

import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.common.fact.VgpuGrant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class HamiAnnotationsTest {

    private static final String U1 = "GPU-2409b7b6-2df6-0343-90dd-2d73da18e0e8";
    private static final String U2 = "GPU-9b9030a3-d81f-7d9f-5d2b-fd98cdc57b2d";
    private static final String U3 = "GPU-0aa6b97c-d386-26ba-a94a-b9d27c2e3a71";

    static Stream<Arguments> allocated() {
        return Stream.of(
                arguments("one device, one container (HAMi #1106)", U1 + ",NVIDIA,4096,0:;",
                        List.of(new VgpuGrant(0, U1, "NVIDIA", 4096, 0))),
                arguments("core share on an A800 training worker", U2 + ",NVIDIA,1024,20:;",
                        List.of(new VgpuGrant(0, U2, "NVIDIA", 1024, 20))),
                arguments("whole card, 100 cores (HAMi #1932 normal pod)", U3 + ",NVIDIA,24576,100:;",
                        List.of(new VgpuGrant(0, U3, "NVIDIA", 24576, 100))),
                arguments("leading ; is an init container without a GPU (HAMi #1932)", ";" + U2 + ",NVIDIA,6144,30:;",
                        List.of(new VgpuGrant(1, U2, "NVIDIA", 6144, 30))),
                arguments("two init slots, two cards in one container (HAMi v2.9.0)",
                        ";;" + U1 + ",NVIDIA,1000,10:" + U2 + ",NVIDIA,2000,20:;",
                        List.of(new VgpuGrant(2, U1, "NVIDIA", 1000, 10), new VgpuGrant(2, U2, "NVIDIA", 2000, 20))),
                arguments("positional slots per container (HAMi #2899 expected)",
                        ";" + U1 + ",NVIDIA,2500,25:;" + U2 + ",NVIDIA,2500,25:;",
                        List.of(new VgpuGrant(1, U1, "NVIDIA", 2500, 25), new VgpuGrant(2, U2, "NVIDIA", 2500, 25))),
                arguments("empty slot and ,,0,0 placeholders mixed (HAMi #991 actual)",
                        U3 + ",NVIDIA,1000,0:;;,,0,0:;,,0,0:;,,0,0:;",
                        List.of(new VgpuGrant(0, U3, "NVIDIA", 1000, 0))),
                arguments("placeholder counts as a container (HAMi #991 expected)",
                        ",,0,0:;" + U3 + ",NVIDIA,1000,0:;,,0,0:;,,0,0:;,,0,0:;",
                        List.of(new VgpuGrant(1, U3, "NVIDIA", 1000, 0))),
                arguments("slots joined without a trailing ; (old encoder)", U1 + ",NVIDIA,1,0:;" + U2 + ",NVIDIA,2,0:",
                        List.of(new VgpuGrant(0, U1, "NVIDIA", 1, 0), new VgpuGrant(1, U2, "NVIDIA", 2, 0))),
                arguments("device without its trailing :", U1 + ",NVIDIA,512,5;",
                        List.of(new VgpuGrant(0, U1, "NVIDIA", 512, 5))),
                arguments("whitespace and line breaks around fields and slots",
                        "  " + U1 + " , NVIDIA , 1024 , 20 :\n;\n " + U2 + ",NVIDIA,2048,0:\t; ",
                        List.of(new VgpuGrant(0, U1, "NVIDIA", 1024, 20), new VgpuGrant(1, U2, "NVIDIA", 2048, 0))),
                arguments("fields after cores are ignored", U1 + ",NVIDIA,1024,20,extra,7:;",
                        List.of(new VgpuGrant(0, U1, "NVIDIA", 1024, 20))),
                arguments("legacy MIG slot suffix stays part of the uuid", U1 + "[1-2],NVIDIA,5120,0:;",
                        List.of(new VgpuGrant(0, U1 + "[1-2]", "NVIDIA", 5120, 0))),
                arguments("zero memory and zero cores", U1 + ",NVIDIA,0,0:;",
                        List.of(new VgpuGrant(0, U1, "NVIDIA", 0, 0))),
                arguments("emptied to-allocate value ;", ";", List.of()),
                arguments("only separators ;;;", ";;;", List.of()),
                arguments("only placeholders", ",,0,0:;,,0,0:;", List.of()),
                arguments("empty string", "", List.of()),
                arguments("blank with a newline", "  \n ", List.of()),
                arguments("absent annotation", null, List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allocated")
    void parsesAllocatedDevices(String name, String value, List<VgpuGrant> expected) {
        assertEquals(expected, HamiAnnotations.parseAllocated(value));
    }

    static Stream<Arguments> badAllocated() {
        return Stream.of(
                arguments("memory with a unit", U1 + ",NVIDIA,4GiB,0:;", U1 + ",NVIDIA,4GiB,0"),
                arguments("fractional memory", U1 + ",NVIDIA,1024.5,0:;", U1 + ",NVIDIA,1024.5,0"),
                arguments("empty memory", U1 + ",NVIDIA,,0:;", U1 + ",NVIDIA,,0"),
                arguments("memory beyond int32", U1 + ",NVIDIA,99999999999,0:;", U1 + ",NVIDIA,99999999999,0"),
                arguments("memory beyond long", U1 + ",NVIDIA,99999999999999999999,0:;", "99999999999999999999"),
                arguments("negative memory", U1 + ",NVIDIA,-1,0:;", U1 + ",NVIDIA,-1,0"),
                arguments("word for cores", U1 + ",NVIDIA,4096,thirty:;", U1 + ",NVIDIA,4096,thirty"),
                arguments("negative cores", U1 + ",NVIDIA,4096,-5:;", U1 + ",NVIDIA,4096,-5"),
                arguments("cores above 100", U1 + ",NVIDIA,4096,101:;", U1 + ",NVIDIA,4096,101"),
                arguments("three fields", U1 + ",NVIDIA,1024:;", U1 + ",NVIDIA,1024"),
                arguments("uuid alone", U1 + ":;", U1),
                arguments("missing type", U1 + ",,1024,0:;", U1 + ",,1024,0"),
                arguments("placeholder with a bad number", ",,x,0:;", ",,x,0"),
                arguments("bad second device is the one named",
                        U1 + ",NVIDIA,1,0:" + U2 + ",NVIDIA,x,0:;", U2 + ",NVIDIA,x,0"),
                arguments("bad device in a later slot", U1 + ",NVIDIA,1,0:;;" + U2 + ",NVIDIA,1:;", U2 + ",NVIDIA,1"),
                arguments("free text", "hello", "hello"),
                arguments("node JSON pasted into the pod field", "[{\"id\":\"" + U1 + "\"}]", "[{\"id\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badAllocated")
    void refusesMalformedAllocatedDevices(String name, String value, String named) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HamiAnnotations.parseAllocated(value));
        assertTrue(e.getMessage().contains(named), () -> "message should name '" + named + "': " + e.getMessage());
        assertTrue(e.getMessage().contains(HamiAnnotations.ALLOCATED), e::getMessage);
    }

    static Stream<Arguments> registered() {
        String t4 = "GPU-9a3603f4-f66e-d48b-11ea-13e327064cca";
        String v100a = "GPU-00552014-5c87-89ac-b1a6-7b53aa24b0ec";
        String v100b = "GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448";
        return Stream.of(
                arguments("legacy text, one T4 (HAMi #602)", t4 + ",10,15360,100,NVIDIA-Tesla T4,0,true:",
                        List.of(new RegisteredGpu(t4, "NVIDIA-Tesla T4", 15360, 100, 10, 0, true))),
                arguments("legacy text, two V100 (protocol doc)",
                        v100a + ",10,32768,100,NVIDIA-Tesla V100-PCIE-32GB,0,true:"
                                + v100b + ",10,32768,100,NVIDIA-Tesla V100-PCIE-32GB,0,true:",
                        List.of(new RegisteredGpu(v100a, "NVIDIA-Tesla V100-PCIE-32GB", 32768, 100, 10, 0, true),
                                new RegisteredGpu(v100b, "NVIDIA-Tesla V100-PCIE-32GB", 32768, 100, 10, 0, true))),
                arguments("legacy text with index and mode", v100a + ",4,81920,100,NVIDIA-NVIDIA A100-SXM4-80GB,1,false,3,hami-core:",
                        List.of(new RegisteredGpu(v100a, "NVIDIA-NVIDIA A100-SXM4-80GB", 81920, 100, 4, 1, false))),
                arguments("legacy text before the NUMA field", t4 + ",10,15360,100,Tesla T4,true:",
                        List.of(new RegisteredGpu(t4, "Tesla T4", 15360, 100, 10, null, true))),
                arguments("legacy text without the trailing :", t4 + ",10,15360,100,NVIDIA-Tesla T4,0,true",
                        List.of(new RegisteredGpu(t4, "NVIDIA-Tesla T4", 15360, 100, 10, 0, true))),
                arguments("legacy text, Go bool spellings", v100a + ",4,16384,100,T4,0,True:" + v100b + ",4,16384,100,T4,0,0:",
                        List.of(new RegisteredGpu(v100a, "T4", 16384, 100, 4, 0, true),
                                new RegisteredGpu(v100b, "T4", 16384, 100, 4, 0, false))),
                arguments("JSON, zero index and numa omitted",
                        "[{\"id\":\"" + v100a + "\",\"count\":10,\"devmem\":46068,\"devcore\":100,"
                                + "\"type\":\"NVIDIA-NVIDIA L40S\",\"mode\":\"hami-core\",\"health\":true}]",
                        List.of(new RegisteredGpu(v100a, "NVIDIA-NVIDIA L40S", 46068, 100, 10, 0, true))),
                arguments("JSON, two cards on two NUMA nodes",
                        "[{\"id\":\"" + v100a + "\",\"count\":10,\"devmem\":81920,\"devcore\":100,\"type\":\"NVIDIA-NVIDIA H100 80GB HBM3\","
                                + "\"mode\":\"hami-core\",\"health\":true},"
                                + "{\"id\":\"" + v100b + "\",\"index\":1,\"count\":10,\"devmem\":81920,\"devcore\":100,"
                                + "\"type\":\"NVIDIA-NVIDIA H100 80GB HBM3\",\"numa\":1,\"mode\":\"hami-core\",\"health\":true}]",
                        List.of(new RegisteredGpu(v100a, "NVIDIA-NVIDIA H100 80GB HBM3", 81920, 100, 10, 0, true),
                                new RegisteredGpu(v100b, "NVIDIA-NVIDIA H100 80GB HBM3", 81920, 100, 10, 1, true))),
                arguments("JSON, omitted health means unhealthy",
                        "[{\"id\":\"" + t4 + "\",\"count\":10,\"devmem\":15360,\"devcore\":100,\"type\":\"NVIDIA-Tesla T4\"}]",
                        List.of(new RegisteredGpu(t4, "NVIDIA-Tesla T4", 15360, 100, 10, 0, false))),
                arguments("JSON, unknown and MIG fields ignored",
                        "[{\"id\":\"" + t4 + "\",\"count\":1,\"devmem\":40960,\"devcore\":100,\"type\":\"NVIDIA-NVIDIA A100-SXM4-40GB\","
                                + "\"mode\":\"mig\",\"migProfiles\":[{\"name\":\"1g.5gb\",\"memoryMB\":4864,\"core\":14,"
                                + "\"sliceCount\":1,\"placements\":[{\"start\":0,\"size\":1}]}],\"devicevendor\":\"NVIDIA\","
                                + "\"custominfo\":{\"k\":\"v\"},\"health\":true}]",
                        List.of(new RegisteredGpu(t4, "NVIDIA-NVIDIA A100-SXM4-40GB", 40960, 100, 1, 0, true))),
                arguments("JSON, pretty printed", "\n[\n  {\n    \"id\": \"" + t4 + "\",\n    \"devmem\": 15360\n  }\n]\n",
                        List.of(new RegisteredGpu(t4, null, 15360, 0, 0, 0, false))),
                arguments("JSON, null fields read as Go zero values",
                        "[{\"id\":\"" + t4 + "\",\"type\":null,\"count\":null,\"health\":null}]",
                        List.of(new RegisteredGpu(t4, null, 0, 0, 0, 0, false))),
                arguments("JSON, empty array", "[]", List.of()),
                arguments("empty string", "", List.of()),
                arguments("blank", " \n", List.of()),
                arguments("absent annotation", null, List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("registered")
    void parsesNodeRegistration(String name, String value, List<RegisteredGpu> expected) {
        assertEquals(expected, HamiAnnotations.parseNodeRegister(value));
    }

    static Stream<Arguments> badRegistered() {
        String id = "GPU-9a3603f4-f66e-d48b-11ea-13e327064cca";
        return Stream.of(
                arguments("JSON object instead of array", "{\"id\":\"" + id + "\"}", "JSON array"),
                arguments("truncated JSON", "[{\"id\":\"" + id + "\"", "not valid JSON"),
                arguments("JSON followed by garbage", "[] trailing", "not valid JSON"),
                arguments("JSON device that is a string", "[\"" + id + "\"]", id),
                arguments("JSON device without id", "[{\"count\":10,\"devmem\":15360}]", "missing id"),
                arguments("JSON blank id", "[{\"id\":\"  \"}]", "missing id"),
                arguments("JSON memory as a string", "[{\"id\":\"" + id + "\",\"devmem\":\"15360\"}]", "devmem"),
                arguments("JSON fractional memory", "[{\"id\":\"" + id + "\",\"devmem\":1.5}]", "devmem"),
                arguments("JSON negative count", "[{\"id\":\"" + id + "\",\"count\":-1}]", "count"),
                arguments("JSON memory beyond int32", "[{\"id\":\"" + id + "\",\"devmem\":9999999999}]", "devmem"),
                arguments("JSON health as a string", "[{\"id\":\"" + id + "\",\"health\":\"true\"}]", "health"),
                arguments("JSON type as a number", "[{\"id\":\"" + id + "\",\"type\":7}]", "type"),
                arguments("text with five fields", id + ",10,15360,100,T4:", id + ",10,15360,100,T4"),
                arguments("text with eight fields", id + ",10,15360,100,T4,0,true,3:", id + ",10,15360,100,T4,0,true,3"),
                arguments("text, count not a number", id + ",ten,15360,100,T4,0,true:", id + ",ten,15360,100,T4,0,true"),
                arguments("text, negative memory", id + ",10,-15360,100,T4,0,true:", id + ",10,-15360,100,T4,0,true"),
                arguments("text, health spelled yes", id + ",10,15360,100,T4,0,yes:", "yes"),
                arguments("text, missing id", ",10,15360,100,T4,0,true:", ",10,15360,100,T4,0,true"),
                arguments("text, negative index", id + ",10,15360,100,T4,0,true,-1,hami-core:", "index"),
                arguments("text, bad second device", id + ",10,15360,100,T4,0,true:GPU-x,10,big,100,T4,0,true:",
                        "GPU-x,10,big,100,T4,0,true"),
                arguments("free text", "not a registration", "not a registration"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRegistered")
    void refusesMalformedRegistration(String name, String value, String named) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HamiAnnotations.parseNodeRegister(value));
        assertTrue(e.getMessage().contains(named), () -> "message should mention '" + named + "': " + e.getMessage());
        assertTrue(e.getMessage().contains(HamiAnnotations.NODE_REGISTER), e::getMessage);
    }
}
