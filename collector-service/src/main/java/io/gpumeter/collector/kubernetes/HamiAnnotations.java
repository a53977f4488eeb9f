package io.gpumeter.collector.kubernetes;

import io.gpumeter.common.problem.JsonFault;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.common.fact.VgpuGrant;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads the HAMi pod annotation of allocated vGPUs and the HAMi node annotation of registered GPUs. */
public final class HamiAnnotations {

    public static final String ALLOCATED = "hami.io/vgpu-devices-allocated";
    public static final String NODE_REGISTER = "hami.io/node-nvidia-register";
    /** {@code success} once HAMi's device plugin has done the binding its scheduler started. */
    public static final String BIND_PHASE = "hami.io/bind-phase";
    /** The node HAMi's scheduler bound the pod's devices on. */
    public static final String NODE = "hami.io/vgpu-node";

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private HamiAnnotations() {
    }

    /**
     * Parses {@code UUID,Type,MemMiB,Cores:} devices in {@code ;}-separated slots, a grant's container being its slot
     * position, which counts init containers first since HAMi v2.9.0.
     */
    public static List<VgpuGrant> parseAllocated(String value) {
        if (value == null || value.isBlank()) {
            return List.of();
        }
        List<VgpuGrant> grants = new ArrayList<>();
        // empty slots count, as in HAMi's DecodePodDevices: a leading ';' is an init container without a GPU
        String[] slots = value.split(";", -1);
        for (int container = 0; container < slots.length; container++) {
            for (String device : slots[container].split(":", -1)) {
                String text = device.strip();
                if (!text.isEmpty()) {
                    grant(container, text).ifPresent(grants::add);
                }
            }
        }
        return List.copyOf(grants);
    }

    /** Parses the node registration, either the JSON array HAMi writes today or the older {@code :}-separated text. */
    public static List<RegisteredGpu> parseNodeRegister(String value) {
        if (value == null || value.isBlank()) {
            return List.of();
        }
        String text = value.strip();
        return text.startsWith("[") || text.startsWith("{") ? registerFromJson(text) : registerFromText(text);
    }

    private static Optional<VgpuGrant> grant(int container, String device) {
        String[] fields = device.split(",", -1);
        // HAMi's decoder also accepts more than four fields, so anything after Cores is ignored rather than refused
        if (fields.length < 4) {
            throw badDevice(device, "expected UUID,Type,MemMiB,Cores");
        }
        long memoryMib = number(fields[2], "memory", device, ALLOCATED);
        long cores = number(fields[3], "cores", device, ALLOCATED);
        if (cores > 100) {
            throw badDevice(device, "cores is a percentage, got " + cores);
        }
        String uuid = fields[0].strip();
        // some HAMi versions wrote ",,0,0:" for a container without a GPU (HAMi #991): a placeholder, not a device
        if (uuid.isEmpty()) {
            return Optional.empty();
        }
        String type = fields[1].strip();
        if (type.isEmpty()) {
            throw badDevice(device, "missing device type");
        }
        return Optional.of(new VgpuGrant(container, uuid, type, memoryMib, (int) cores));
    }

    private static List<RegisteredGpu> registerFromJson(String text) {
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(NODE_REGISTER + " is not valid JSON: " + JsonFault.of(e).detail(), e);
        }
        if (!root.isArray()) {
            throw new IllegalArgumentException(NODE_REGISTER + " must be a JSON array of devices, got " + root.getNodeType());
        }
        List<RegisteredGpu> gpus = new ArrayList<>();
        for (JsonNode device : root) {
            gpus.add(gpuFromJson(device));
        }
        return List.copyOf(gpus);
    }

    private static RegisteredGpu gpuFromJson(JsonNode device) {
        if (!device.isObject()) {
            throw badGpu(device.toString(), "each device must be a JSON object");
        }
        JsonNode id = device.path("id");
        if (!id.isTextual() || id.asText().isBlank()) {
            throw badGpu(device.toString(), "missing id");
        }
        JsonNode type = device.path("type");
        if (!type.isMissingNode() && !type.isNull() && !type.isTextual()) {
            throw badGpu(device.toString(), "type must be a string");
        }
        // HAMi marshals with omitempty, so a zero count, memory, cores or NUMA node and a false health are absent
        JsonNode health = device.path("health");
        if (!health.isMissingNode() && !health.isNull() && !health.isBoolean()) {
            throw badGpu(device.toString(), "health must be true or false");
        }
        return new RegisteredGpu(id.asText().strip(), type.isTextual() ? type.asText().strip() : null,
                jsonNumber(device, "devmem"), jsonNumber(device, "devcore"), jsonNumber(device, "count"),
                jsonNumber(device, "numa"), health.asBoolean(false));
    }

    private static int jsonNumber(JsonNode device, String field) {
        JsonNode node = device.path(field);
        if (node.isMissingNode() || node.isNull()) {
            return 0;
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt() || node.asInt() < 0) {
            throw badGpu(device.toString(), field + " must be a non-negative whole number, got " + node);
        }
        return node.asInt();
    }

    private static List<RegisteredGpu> registerFromText(String text) {
        List<RegisteredGpu> gpus = new ArrayList<>();
        for (String device : text.split(":", -1)) {
            String trimmed = device.strip();
            if (!trimmed.isEmpty()) {
                gpus.add(gpuFromText(trimmed));
            }
        }
        return List.copyOf(gpus);
    }

    private static RegisteredGpu gpuFromText(String device) {
        String[] f = device.split(",", -1);
        // 7 fields is the documented layout, 9 adds index and mode (EncodeNodeDevices), 6 predates the NUMA field
        if (f.length != 6 && f.length != 7 && f.length != 9) {
            throw badGpu(device, "expected id,count,devmem,devcore,type,numa,health[,index,mode], got " + f.length + " fields");
        }
        String id = f[0].strip();
        if (id.isEmpty()) {
            throw badGpu(device, "missing id");
        }
        int count = (int) number(f[1], "count", device, NODE_REGISTER);
        long memoryMib = number(f[2], "devmem", device, NODE_REGISTER);
        int cores = (int) number(f[3], "devcore", device, NODE_REGISTER);
        Integer numa = f.length == 6 ? null : (int) number(f[5], "numa", device, NODE_REGISTER);
        boolean healthy = goBool(f[f.length == 6 ? 5 : 6], device);
        if (f.length == 9) {
            number(f[7], "index", device, NODE_REGISTER);
        }
        return new RegisteredGpu(id, f[4].strip(), memoryMib, cores, count, numa, healthy);
    }

    /** The spellings Go's strconv.ParseBool accepts, since that is what wrote and reads the field. */
    private static boolean goBool(String field, String device) {
        return switch (field.strip()) {
            case "1", "t", "T", "true", "TRUE", "True" -> true;
            case "0", "f", "F", "false", "FALSE", "False" -> false;
            default -> throw badGpu(device, "health must be true or false, got '" + field.strip() + "'");
        };
    }

    private static long number(String field, String name, String device, String annotation) {
        String text = field.strip();
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw bad(annotation, device, name + " must be a whole number, got '" + text + "'");
        }
        if (value < 0 || value > Integer.MAX_VALUE) {
            throw bad(annotation, device, name + " must be between 0 and " + Integer.MAX_VALUE + ", got " + value);
        }
        return value;
    }

    private static IllegalArgumentException badDevice(String device, String reason) {
        return bad(ALLOCATED, device, reason);
    }

    private static IllegalArgumentException badGpu(String device, String reason) {
        return bad(NODE_REGISTER, device, reason);
    }

    private static IllegalArgumentException bad(String annotation, String device, String reason) {
        return new IllegalArgumentException("malformed device '" + device + "' in " + annotation + ": " + reason);
    }
}
