package io.gpumeter.collector.usage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The two headers a node script sends beside nvidia-smi's per-process output. */
class PusherHeadersTest {

    @Test
    void pidsNameTheirContainersWithOrWithoutTheContainerName() {
        ProcessOwners owners = ProcessOwners.parse(" 12=ml/train-0/main ,13=ml/web-5d9f.x , 14=ml/a/, ,");
        assertEquals(new ProcessOwners.Owner("ml", "train-0", "main"), owners.of(12));
        assertEquals(new ProcessOwners.Owner("ml", "web-5d9f.x", null), owners.of(13));
        assertEquals(new ProcessOwners.Owner("ml", "a", null), owners.of(14));
        assertNull(owners.of(15));
        assertNull(ProcessOwners.parse(null).of(12));
        assertEquals(new ProcessOwners.Owner("ml", "p", "c"), ProcessOwners.parse("7=ml/p/c,7=ml/p/c").of(7),
                "the same entry twice is one entry");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no equals sign         | 12                     | is not pid=",
            "pid zero               | 0=ml/p                 | is not pid=",
            "negative pid           | -4=ml/p                | is not pid=",
            "signed pid             | +4=ml/p                | is not pid=",
            "pid not a number       | x1=ml/p                | is not pid=",
            "pod missing            | 12=ml                  | is not namespace/pod",
            "too many parts         | 12=ml/p/c/d            | is not namespace/pod",
            "upper-case namespace   | 12=ML/p                | is not namespace/pod",
            "empty namespace        | 12=/p                  | is not namespace/pod",
            "bad container          | 12=ml/p/C_1            | is not namespace/pod",
            "one pid two pods       | '12=ml/a,12=ml/b'      | pid 12 is named twice",
    })
    void badPidEntriesAreRefusedNamingTheEntry(String name, String header, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProcessOwners.parse(header));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void gpuIndexesReadWhatQueryGpuIndexUuidPrints() {
        GpuIndexes gpus = GpuIndexes.parse("0=GPU-5f0c2a81-9b3e, 1 = GPU-77,");
        assertEquals("GPU-5f0c2a81-9b3e", gpus.uuid(0));
        assertEquals("GPU-77", gpus.uuid(1));
        assertNull(gpus.uuid(2));
        assertTrue(GpuIndexes.parse("").isEmpty());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no uuid           | 0=                 | is not index=GPU-uuid",
            "not a GPU uuid    | 0=MIG-1            | is not index=GPU-uuid",
            "negative index    | -1=GPU-1           | is not index=GPU-uuid",
            "index too large   | 5000=GPU-1         | is not index=GPU-uuid",
            "odd characters    | 0=GPU-1;rm         | is not index=GPU-uuid",
            "index mapped twice| '0=GPU-1,0=GPU-2'  | index 0 is mapped twice",
    })
    void badGpuEntriesAreRefused(String name, String header, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GpuIndexes.parse(header));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
