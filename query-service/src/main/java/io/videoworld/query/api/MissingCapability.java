package io.videoworld.query.api;

/** What a tool that answers 501 is waiting for, said in the error so callers know it is not a bug. */
public final class MissingCapability {
    private MissingCapability() {}

    public static String of(ToolCatalog.ToolDef tool) {
        return switch (tool.family()) {
            case "perception" -> "the perception index (object detection, OCR, embeddings), which is not built yet";
            case "retrieval", "memory" -> "episodic memory and embeddings, which are not built yet";
            default -> "a capability that is not built yet";
        };
    }
}
