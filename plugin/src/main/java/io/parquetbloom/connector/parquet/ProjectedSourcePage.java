package io.parquetbloom.connector.parquet;

import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.connector.SourcePage;

import java.util.Map;
import java.util.function.ObjLongConsumer;

import static io.parquetbloom.ParquetBloomErrorCode.PARQUET_BLOOM_READ_ERROR;
import static java.util.Objects.requireNonNull;

/**
 * The columns the engine asked for: those read from the file (unsigned integers converted, see
 * {@link UnsignedConversion}), plus constant ones (partition values, and NULL for columns a file does not have) as
 * run-length blocks.
 */
final class ProjectedSourcePage
        implements SourcePage
{
    private final String path;
    private final SourcePage source;
    // >= 0: channel of the source page; < 0: constant number (-1 - channel)
    private final int[] channels;
    private final Block[] constants;
    // by source channel
    private final Map<Integer, UnsignedConversion> conversions;
    private final Block[] converted;
    private int positionCount;

    ProjectedSourcePage(String path, SourcePage source, int[] channels, Block[] constants, Map<Integer, UnsignedConversion> conversions)
    {
        this.path = requireNonNull(path, "path is null");
        this.source = requireNonNull(source, "source is null");
        this.channels = requireNonNull(channels, "channels is null");
        this.constants = requireNonNull(constants, "constants is null");
        this.conversions = requireNonNull(conversions, "conversions is null");
        this.converted = new Block[source.getChannelCount()];
        this.positionCount = source.getPositionCount();
    }

    @Override
    public int getPositionCount()
    {
        return positionCount;
    }

    @Override
    public long getSizeInBytes()
    {
        return source.getSizeInBytes();
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        return source.getRetainedSizeInBytes();
    }

    @Override
    public void retainedBytesForEachPart(ObjLongConsumer<Object> consumer)
    {
        source.retainedBytesForEachPart(consumer);
    }

    @Override
    public int getChannelCount()
    {
        return channels.length;
    }

    @Override
    public Block getBlock(int channel)
    {
        int sourceChannel = channels[channel];
        if (sourceChannel >= 0) {
            try {
                // the reader decodes lazily, here, outside the page source: its failures must name the file too
                return sourceBlock(sourceChannel);
            }
            catch (TrinoException e) {
                throw e;
            }
            catch (RuntimeException e) {
                throw new TrinoException(PARQUET_BLOOM_READ_ERROR, "Failed to read Parquet file %s: %s".formatted(path, e), e);
            }
        }
        return RunLengthEncodedBlock.create(constants[-1 - sourceChannel], positionCount);
    }

    private Block sourceBlock(int sourceChannel)
    {
        UnsignedConversion conversion = conversions.get(sourceChannel);
        if (conversion == null) {
            return source.getBlock(sourceChannel);
        }
        // converted once: the no-match recorder and the engine both ask for it
        if (converted[sourceChannel] == null) {
            converted[sourceChannel] = conversion.convert(source.getBlock(sourceChannel));
        }
        return converted[sourceChannel];
    }

    @Override
    public Page getPage()
    {
        Block[] blocks = new Block[channels.length];
        for (int i = 0; i < blocks.length; i++) {
            blocks[i] = getBlock(i);
        }
        return new Page(positionCount, blocks);
    }

    @Override
    public void selectPositions(int[] positions, int offset, int size)
    {
        for (int channel = 0; channel < converted.length; channel++) {
            if (converted[channel] != null) {
                converted[channel] = converted[channel].getPositions(positions, offset, size);
            }
        }
        source.selectPositions(positions, offset, size);
        positionCount = size;
    }
}
