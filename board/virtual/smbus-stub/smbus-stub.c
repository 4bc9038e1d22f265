// SPDX-License-Identifier: GPL-2.0
/*
 * An SMBus adapter with one register-file chip on it, for the arm64 virtual board: Debian's
 * arm64 kernel does not build the kernel's own i2c-stub, and the board needs a LIS3DH that
 * both the kernel's st_accel driver and our userspace driver can read. It behaves as
 * i2c-stub does for what they use: 256 16-bit registers at `chip_addr`; byte reads and
 * writes use a register's low byte; word transfers the whole register; I2C block transfers
 * walk consecutive registers (the st_sensors auto-increment reads); a byte read without a
 * command reads at the pointer the last write left. Its adapter is named "SMBus stub
 * driver", like i2c-stub's, so the board finds it the same way.
 */
#include <linux/i2c.h>
#include <linux/module.h>
#include <linux/mutex.h>

static unsigned short chip_addr;
module_param(chip_addr, ushort, 0444);
MODULE_PARM_DESC(chip_addr, "the 7-bit address the register file answers at");

static u16 registers[256];
static u8 pointer;
static DEFINE_MUTEX(registers_lock);

static s32 stub_xfer(struct i2c_adapter *adapter, u16 addr, unsigned short flags, char read_write,
		     u8 command, int size, union i2c_smbus_data *data)
{
	s32 result = 0;
	int i, length;

	if (addr != chip_addr)
		return -ENODEV;
	mutex_lock(&registers_lock);
	switch (size) {
	case I2C_SMBUS_QUICK:
		break;
	case I2C_SMBUS_BYTE:
		if (read_write == I2C_SMBUS_WRITE)
			pointer = command;
		else
			data->byte = registers[pointer++] & 0xff;
		break;
	case I2C_SMBUS_BYTE_DATA:
		if (read_write == I2C_SMBUS_WRITE)
			registers[command] = (registers[command] & 0xff00) | data->byte;
		else
			data->byte = registers[command] & 0xff;
		pointer = command + 1;
		break;
	case I2C_SMBUS_WORD_DATA:
		if (read_write == I2C_SMBUS_WRITE)
			registers[command] = data->word;
		else
			data->word = registers[command];
		break;
	case I2C_SMBUS_I2C_BLOCK_DATA:
		length = data->block[0];
		if (length < 1 || length > I2C_SMBUS_BLOCK_MAX || command + length > 256) {
			result = -EINVAL;
			break;
		}
		for (i = 0; i < length; i++) {
			if (read_write == I2C_SMBUS_WRITE)
				registers[command + i] = (registers[command + i] & 0xff00) | data->block[1 + i];
			else
				data->block[1 + i] = registers[command + i] & 0xff;
		}
		break;
	default:
		result = -EOPNOTSUPP;
	}
	mutex_unlock(&registers_lock);
	return result;
}

static u32 stub_functionality(struct i2c_adapter *adapter)
{
	return I2C_FUNC_SMBUS_QUICK | I2C_FUNC_SMBUS_BYTE | I2C_FUNC_SMBUS_BYTE_DATA |
	       I2C_FUNC_SMBUS_WORD_DATA | I2C_FUNC_SMBUS_I2C_BLOCK;
}

static const struct i2c_algorithm stub_algorithm = {
	.smbus_xfer = stub_xfer,
	.functionality = stub_functionality,
};

static struct i2c_adapter stub_adapter = {
	.owner = THIS_MODULE,
	.class = I2C_CLASS_HWMON,
	.algo = &stub_algorithm,
	.name = "SMBus stub driver",
};

static int __init stub_init(void)
{
	if (chip_addr < 0x03 || chip_addr > 0x77) {
		pr_err("smbus-stub: chip_addr=0x%x is not a 7-bit device address\n", chip_addr);
		return -EINVAL;
	}
	return i2c_add_adapter(&stub_adapter);
}

static void __exit stub_exit(void)
{
	i2c_del_adapter(&stub_adapter);
}

module_init(stub_init);
module_exit(stub_exit);
MODULE_DESCRIPTION("A register-file chip on an SMBus adapter, for the MotionKiosk virtual board");
MODULE_LICENSE("GPL");
