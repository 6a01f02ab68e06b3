package io.parquetbloom.connector.parquet;

import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.RunLengthEncodedBlock;
import io.trino.spi.connector.SourcePage;

import java.util.List;
import java.util.function.ObjLongConsumer;

import static io.parquetbloom.connector.parquet.ParquetBloomPageSource.readError;
import static java.util.Objects.requireNonNull;

/**
 * The columns the engine asked for: those read from the file (unsigned integers converted, see
 * {@link ColumnConversion}), plus constant ones (partition values, and NULL for columns a file does not have) as
 * run-length blocks.
 */
final class ProjectedSourcePage
        implements SourcePage
{
    /**
     * Where an output channel's values come from.
     */
    sealed interface ProjectedColumn
    {
        record Source(int sourceChannel)
                implements ProjectedColumn {}

        record Converted(int sourceChannel, ColumnConversion conversion)
                implements ProjectedColumn
        {
            public Converted
            {
                requireNonNull(conversion, "conversion is null");
            }
        }

        record Constant(Block value)
                implements ProjectedColumn
        {
            public Constant
            {
                requireNonNull(value, "value is null");
            }
        }
    }

    private final String path;
    private final SourcePage source;
    private final List<ProjectedColumn> columns;
    // by output channel: converted once, since the no-match recorder and the engine both ask for it
    private final Block[] converted;
    private int positionCount;

    ProjectedSourcePage(String path, SourcePage source, List<ProjectedColumn> columns)
    {
        this.path = requireNonNull(path, "path is null");
        this.source = requireNonNull(source, "source is null");
        this.columns = requireNonNull(columns, "columns is null");
        this.converted = new Block[columns.size()];
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
        return columns.size();
    }

    @Override
    public Block getBlock(int channel)
    {
        try {
            // the reader decodes lazily, here, outside the page source: its failures must name the file too
            return switch (columns.get(channel)) {
                case ProjectedColumn.Source column -> source.getBlock(column.sourceChannel());
                case ProjectedColumn.Converted column -> convertedBlock(channel, column);
                case ProjectedColumn.Constant column -> RunLengthEncodedBlock.create(column.value(), positionCount);
            };
        }
        catch (RuntimeException e) {
            throw readError(path, e);
        }
    }

    private Block convertedBlock(int channel, ProjectedColumn.Converted column)
    {
        if (converted[channel] == null) {
            converted[channel] = column.conversion().convert(source.getBlock(column.sourceChannel()));
        }
        return converted[channel];
    }

    @Override
    public Page getPage()
    {
        Block[] blocks = new Block[columns.size()];
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
