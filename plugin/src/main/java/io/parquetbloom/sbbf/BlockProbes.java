package io.parquetbloom.sbbf;

import java.util.Locale;

/**
 * Chooses the probe once per JVM: the Vector API kernel when the {@code jdk.incubator.vector} module is in the
 * boot layer and the CPU has native 256-bit integer vectors, otherwise the scalar kernel. The system property
 * {@value #PROBE_PROPERTY} ({@code vector} or {@code scalar}) overrides the choice for tests and benchmarks.
 */
public final class BlockProbes
{
    public static final String PROBE_PROPERTY = "parquetbloom.sbbf.probe";
    private static final String VECTOR_MODULE = "jdk.incubator.vector";

    private static final Selection SELECTION = select();

    private BlockProbes() {}

    public record Selection(BlockProbe probe, String reason) {}

    /**
     * The probe chosen for this JVM and why.
     */
    public static Selection selection()
    {
        return SELECTION;
    }

    public static BlockProbe best()
    {
        return SELECTION.probe();
    }

    public static BlockProbe scalar()
    {
        return ScalarBlockProbe.INSTANCE;
    }

    /**
     * The Vector API probe regardless of whether it is native here, for tests and benchmarks.
     *
     * @throws IllegalStateException when the module is absent
     */
    public static BlockProbe vector()
    {
        if (!vectorModulePresent()) {
            throw new IllegalStateException("module %s is not in the boot layer; start the JVM with --add-modules=%s".formatted(VECTOR_MODULE, VECTOR_MODULE));
        }
        return VectorBlockProbe.INSTANCE;
    }

    private static Selection select()
    {
        String forced = System.getProperty(PROBE_PROPERTY, "").trim().toLowerCase(Locale.ROOT);
        if (forced.equals("scalar")) {
            return new Selection(ScalarBlockProbe.INSTANCE, "forced by -D%s=scalar".formatted(PROBE_PROPERTY));
        }
        if (!vectorModulePresent()) {
            return new Selection(ScalarBlockProbe.INSTANCE, "module %s not present (add --add-modules=%s to the JVM flags)".formatted(VECTOR_MODULE, VECTOR_MODULE));
        }
        try {
            String unsupported = VectorBlockProbe.unsupportedReason();
            if (unsupported != null && !forced.equals("vector")) {
                return new Selection(ScalarBlockProbe.INSTANCE, unsupported);
            }
            return new Selection(VectorBlockProbe.INSTANCE, forced.equals("vector") ? "forced by -D%s=vector".formatted(PROBE_PROPERTY) : "native 256-bit integer vectors");
        }
        catch (LinkageError e) {
            return new Selection(ScalarBlockProbe.INSTANCE, "Vector API unusable: " + e);
        }
    }

    private static boolean vectorModulePresent()
    {
        return ModuleLayer.boot().findModule(VECTOR_MODULE).isPresent();
    }
}
